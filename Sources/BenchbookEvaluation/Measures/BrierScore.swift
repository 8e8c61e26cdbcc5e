import BenchbookData

/// scikit-learn's `brier_score_loss`: the mean over rows of Σₖ (pₖ − yₖ)²,
/// halved for two classes so a binary score is the familiar mean (p₁ − y)².
public enum BrierScore {
  public static func evaluate(_ probabilities: Matrix, labels: [Int]) -> Double {
    var total = 0.0
    for (row, label) in labels.enumerated() {
      for c in 0..<probabilities.columns {
        let d = probabilities[row, c] - (c == label ? 1 : 0)
        total += d * d
      }
    }
    let mean = total / Double(labels.count)
    return probabilities.columns < 3 ? mean / 2 : mean
  }
}
