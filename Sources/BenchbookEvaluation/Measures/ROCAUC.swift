import BenchbookData

/// Area under the ROC curve: binary, or the macro average of one-vs-rest
/// areas over the classes for more than two.
///
/// A class is skipped in a fold whose test rows are all of it or none of it
/// (its area is undefined there; scikit-learn raises); a fold with no
/// class left has no AUC (`nil`).
public enum ROCAUC {
  public static func evaluate(_ probabilities: Matrix, labels: [Int]) -> Double? {
    if probabilities.columns == 2 {
      return binary(scores: probabilities.column(1), positive: labels.map { $0 == 1 })
    }
    var areas: [Double] = []
    for c in 0..<probabilities.columns {
      if let area = binary(scores: probabilities.column(c), positive: labels.map { $0 == c }) { areas.append(area) }
    }
    return areas.isEmpty ? nil : areas.reduce(0, +) / Double(areas.count)
  }

  /// The Mann–Whitney statistic with mid-ranks for tied scores, which equals
  /// the trapezoidal area under the ROC curve.
  public static func binary(scores: [Double], positive: [Bool]) -> Double? {
    let positives = positive.lazy.filter { $0 }.count
    let negatives = positive.count - positives
    guard positives > 0, negatives > 0 else { return nil }
    // The positives' mid-ranks: half-integers, whose sum is exact in any order (below 2⁵²).
    let ranks = SortedOrder.averageRanks(scores)
    var rankSum = 0.0
    for (rank, isPositive) in zip(ranks, positive) where isPositive { rankSum += rank }
    let p = Double(positives)
    return (rankSum - p * (p + 1) / 2) / (p * Double(negatives))
  }
}
