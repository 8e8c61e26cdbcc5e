import Foundation

/// The Wilcoxon signed-rank test of paired scores (two models over the same datasets), two-sided, as scipy 1.17's
/// `wilcoxon(x, y)` computes it with its defaults (`zero_method="wilcox"`, `correction=False`, `method="auto"`):
///
/// - zero differences are dropped before ranking, the rest ranked by absolute value, ties at their average rank;
///   R⁺ is the sum of the positive differences' ranks;
/// - more than 50 pairs (zeros counted): the normal approximation;
/// - otherwise, with no ties and no zeros: the exact distribution of R⁺ over the 2ⁿ sign patterns;
/// - with ties or zeros and at most 13 pairs: the same count over every sign pattern of the tied ranks (scipy's
///   exhaustive permutation test, exact);
/// - with ties or zeros and 14 to 50 pairs: the normal approximation, its variance corrected for ties.
///
/// The exact p-value is 2 min(P(R⁺ ≤ r), P(R⁺ ≥ r)), at most 1; the approximate one 2Φ(−|z|) with
/// z = (R⁺ − n(n+1)/4) / √((n(n+1)(2n+1) − Σ(t³ − t)/2)/24), n counting the non-zero differences.
public struct WilcoxonSignedRank: Sendable, Hashable {
  public enum Method: String, Sendable, Hashable {
    case exact, permutation, normal
  }

  public var pValue: Double
  /// The smaller of R⁺ and R⁻ (scipy's `statistic`).
  public var statistic: Double
  public var method: Method

  /// - Parameter differences: x − y per pair. With every difference zero there is nothing against equality, and
  ///   the p-value is 1 (scipy gives 1 up to 13 pairs, NaN above).
  public init(differences: [Double]) {
    precondition(!differences.isEmpty, "at least one pair")
    precondition(differences.allSatisfy(\.isFinite), "finite differences")
    let nonzero = differences.filter { $0 != 0 }
    let zeros = differences.count - nonzero.count
    let ranks = SortedOrder.averageRanks(nonzero.map(abs))
    var plus = 0.0
    var minus = 0.0
    for (difference, rank) in zip(nonzero, ranks) {
      if difference > 0 { plus += rank } else { minus += rank }
    }
    statistic = min(plus, minus)
    var tieGroups: [Double: Int] = [:]
    for rank in ranks { tieGroups[rank, default: 0] += 1 }
    let hasTies = tieGroups.values.contains { $0 > 1 }
    if nonzero.isEmpty {
      (pValue, method) = (1, .permutation)
    } else if differences.count > 50 || ((hasTies || zeros > 0) && differences.count > 13) {
      method = .normal
      let n = Double(nonzero.count)
      let tieTerm = tieGroups.values.reduce(0.0) { sum, t in sum + Double(t * t * t - t) }
      let mean = n * (n + 1) * 0.25
      let deviation = ((n * (n + 1) * (2 * n + 1) - tieTerm / 2) / 24).squareRoot()
      let z = (plus - mean) / deviation
      pValue = erfc(abs(z) / 2.0.squareRoot())
    } else {
      method = hasTies || zeros > 0 ? .permutation : .exact
      pValue = Self.signFlipPValue(ranks: ranks, observed: plus)
    }
  }

  /// 2 min(P(R⁺ ≤ observed), P(R⁺ ≥ observed)) over the 2ⁿ equally likely signs of `ranks`, counted exactly.
  /// Average ranks are halves at most, so R⁺ counts in halves.
  static func signFlipPValue(ranks: [Double], observed: Double) -> Double {
    let halves = ranks.map { Int(($0 * 2).rounded()) }
    let total = halves.reduce(0, +)
    // ways[s]: sign patterns whose positive ranks sum to s halves. At most 2⁵⁰ patterns: exact in a Double.
    var ways = [Double](repeating: 0, count: total + 1)
    ways[0] = 1
    var reach = 0
    for h in halves {
      reach += h
      for s in stride(from: reach, through: h, by: -1) { ways[s] += ways[s - h] }
    }
    let target = Int((observed * 2).rounded())
    var below = 0.0
    var above = 0.0
    for (s, count) in ways.enumerated() {
      if s <= target { below += count }
      if s >= target { above += count }
    }
    let patterns = ways.reduce(0, +)
    return min(1, 2 * min(below, above) / patterns)
  }
}
