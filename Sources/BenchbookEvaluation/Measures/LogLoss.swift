import BenchbookData
import Foundation

/// Log-loss as scikit-learn ≥ 1.5 computes it: the mean over rows of
/// `-log p(true class)`, with p clipped to `[ε, 1 − ε]` and no renormalisation.
public enum LogLoss {
  /// float64 machine epsilon, scikit-learn's clipping bound.
  public static let epsilon = 2.220446049250313e-16

  /// The loss of one probability for the true class.
  @inline(__always)
  public static func loss(_ p: Double) -> Double {
    -log(min(max(p, epsilon), 1 - epsilon))
  }

  /// How much of a fold's log-loss comes from probabilities clipped at ε.
  public struct Evaluation: Sendable, Hashable {
    public var value: Double
    /// Rows whose true-class probability was below ε (each costs about 36.04 nats).
    public var clippedRows: Int
    /// Share of the summed loss contributed by those rows.
    public var clippedShare: Double
  }

  public static func evaluate(_ probabilities: Matrix, labels: [Int]) -> Evaluation {
    precondition(probabilities.rows == labels.count, "one label per row")
    var total = 0.0
    var clipped = 0.0
    var clippedRows = 0
    for (row, label) in labels.enumerated() {
      let p = probabilities[row, label]
      let l = loss(p)
      total += l
      if p < epsilon {
        clipped += l
        clippedRows += 1
      }
    }
    let n = Double(labels.count)
    return Evaluation(value: total / n, clippedRows: clippedRows, clippedShare: total > 0 ? clipped / total : 0)
  }
}
