/// Friedman's test that k models perform alike over N datasets, on their ranks within each dataset, with
/// Iman and Davenport's F form of it (Demšar, JMLR 7, 2006, section 3.2.2).
///
/// The statistic is scipy's `friedmanchisquare`: χ² = (12/(Nk(k+1)) Σ R_j² − 3N(k+1)) / C, where R_j is model j's
/// rank sum and C = 1 − Σ(t³ − t)/(Nk(k² − 1)) corrects for ties of t models within a dataset.
public struct FriedmanTest: Sendable, Hashable {
  /// Friedman's χ² with k − 1 degrees of freedom.
  public var statistic: Double
  public var pValue: Double
  /// F_F = (N − 1)χ² / (N(k − 1) − χ²) with k − 1 and (k − 1)(N − 1) degrees of freedom; `nil` when infinite
  /// (every dataset ranks the models alike, so χ² reaches its maximum N(k − 1)).
  public var imanDavenportStatistic: Double?
  public var imanDavenportPValue: Double

  /// - Parameter ranks: one row per dataset, one column per model, ties at their average rank (`averageRanks`).
  ///   At least two datasets and two models. When every dataset ties every model there is no evidence either
  ///   way: both statistics are 0 and both p-values 1.
  public init(ranks: [[Double]]) {
    let n = ranks.count
    precondition(n >= 2, "at least two datasets")
    let k = ranks[0].count
    precondition(k >= 2 && ranks.allSatisfy { $0.count == k }, "at least two models, the same on every dataset")
    var ties = 0.0
    for row in ranks {
      var counts: [Double: Int] = [:]
      for rank in row { counts[rank, default: 0] += 1 }
      for t in counts.values.map(Double.init) { ties += t * (t * t - 1) }
    }
    let (nd, kd) = (Double(n), Double(k))
    let correction = 1 - ties / (kd * (kd * kd - 1) * nd)
    guard correction > 0 else {
      (statistic, pValue, imanDavenportStatistic, imanDavenportPValue) = (0, 1, 0, 1)
      return
    }
    var squares = 0.0
    for j in 0..<k {
      var sum = 0.0
      for row in ranks { sum += row[j] }
      squares += sum * sum
    }
    let chi = (12.0 / (kd * nd * (kd + 1)) * squares - 3 * nd * (kd + 1)) / correction
    statistic = chi
    pValue = ChiSquared(degreesOfFreedom: kd - 1).survival(chi)
    let denominator = nd * (kd - 1) - chi
    // χ² at its maximum but for rounding: the F form is infinite there.
    if denominator <= 1e-12 * nd * (kd - 1) {
      imanDavenportStatistic = nil
      imanDavenportPValue = 0
    } else {
      let f = (nd - 1) * chi / denominator
      imanDavenportStatistic = f
      imanDavenportPValue = FisherF(numeratorDegrees: kd - 1, denominatorDegrees: (kd - 1) * (nd - 1)).survival(f)
    }
  }

  /// Each dataset's ranks of the models' scores, 1 for the lowest, ties sharing their average rank.
  public static func ranks(lowerIsBetter scores: [[Double]]) -> [[Double]] {
    scores.map(SortedOrder.averageRanks)
  }
}
