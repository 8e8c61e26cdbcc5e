import Foundation

/// scikit-learn's log losses as its histogram gradient boosting uses them: `HalfBinomialLoss` for two classes
/// (one raw score) and `HalfMultinomialLoss` otherwise (one per class), with the formulas of its Cython
/// `_loss` module, so that gradients round to the same float32 values and early stopping sees the same losses.
///
/// Raw scores are score-major: score `k` of row `i` is `raw[k * rows + i]`.
enum LogLossBoosting {
  /// `fit_intercept_only`: the log-odds of the share of class 1 (clipped 10 ε from 0 and 1), or the symmetric
  /// multinomial logit of the class shares (each clipped ε from 0 and 1), as scikit-learn computes them.
  static func baseline(labels: [Int], classCount: Int) -> [Double] {
    let n = Double(labels.count)
    var counts = [Int](repeating: 0, count: classCount)
    for label in labels { counts[label] += 1 }
    if classCount == 2 {
      let eps = 10 * Double.ulpOfOne
      let p = min(max(Double(counts[1]) / n, eps), 1 - eps)
      return [logit(p)]
    }
    let eps = Double.ulpOfOne
    let shares = counts.map { min(max(Double($0) / n, eps), 1 - eps) }
    let geometricMean = exp(PairwiseSum.sum(shares.map { log($0) }) / Double(classCount))
    return shares.map { log($0 / geometricMean) }
  }

  /// SciPy's `logit` (xsf): `log(p / (1 − p))`, or `log1p(s) − log1p(−s)` with `s = 2(p − ½)` for p in
  /// [0.3, 0.65].
  static func logit(_ p: Double) -> Double {
    if p < 0.3 || p > 0.65 { return log(p / (1 - p)) }
    let s = 2 * (p - 0.5)
    return log1p(s) - log1p(-s)
  }

  /// `log(1 + exp(x))` as `_loss.pyx`'s `log1pexp` computes it.
  @inline(__always)
  static func log1pexp(_ x: Double) -> Double {
    if x <= -37 { return exp(x) }
    if x <= -2 { return log1p(exp(x)) }
    if x <= 18 { return log(1 + exp(x)) }
    if x <= 33.3 { return x + exp(-x) }
    return x
  }

  /// `gradient_hessian`: each row's gradient and hessian of the loss, computed in double and stored in float32.
  static func gradientsAndHessians(
    raw: [Double], labels: [Int], rows: Int, scoreCount: Int, gradients: inout [Float], hessians: inout [Float]
  ) {
    if scoreCount == 1 {
      for i in 0..<rows {
        let y = Double(labels[i])
        let r = raw[i]
        if r > -37 {
          let e = exp(-r)
          gradients[i] = Float(((1 - y) - y * e) / (1 + e))
          hessians[i] = Float(e / ((1 + e) * (1 + e)))
        } else {
          let e = exp(r)
          gradients[i] = Float(e - y)
          hessians[i] = Float(e)
        }
      }
      return
    }
    var p = [Double](repeating: 0, count: scoreCount)
    for i in 0..<rows {
      let (_, sum) = exponentials(raw, row: i, rows: rows, into: &p)
      for k in 0..<scoreCount {
        let share = p[k] / sum
        gradients[k * rows + i] = Float(share - (labels[i] == k ? 1 : 0))
        hessians[k * rows + i] = Float(share * (1 - share))
      }
    }
  }

  /// `sum_exp_minus_max`: the largest score, and `exp(score − largest)` of each score with their sum.
  @inline(__always)
  private static func exponentials(_ raw: [Double], row i: Int, rows: Int, into p: inout [Double])
    -> (max: Double, sum: Double)
  {
    var top = raw[i]
    for k in 1..<p.count where top < raw[k * rows + i] { top = raw[k * rows + i] }
    var sum = 0.0
    for k in 0..<p.count {
      p[k] = exp(raw[k * rows + i] - top)
      sum += p[k]
    }
    return (top, sum)
  }

  /// The mean loss over the rows (the loss's `__call__`: per-row losses, then NumPy's pairwise mean).
  static func meanLoss(raw: [Double], labels: [Int], rows: Int, scoreCount: Int) -> Double {
    var losses = [Double](repeating: 0, count: rows)
    if scoreCount == 1 {
      for i in 0..<rows { losses[i] = log1pexp(raw[i]) - Double(labels[i]) * raw[i] }
    } else {
      var p = [Double](repeating: 0, count: scoreCount)
      for i in 0..<rows {
        let (top, sum) = exponentials(raw, row: i, rows: rows, into: &p)
        losses[i] = log(sum) + top
        losses[i] -= raw[labels[i] * rows + i]
      }
    }
    return PairwiseSum.sum(losses) / Double(rows)
  }
}
