import Foundation

/// The Mann–Whitney U test of whether one sample tends to be larger than
/// another: rank-based, so a single noisy outlier cannot carry it.
public enum MannWhitneyU {
  /// One-sided p-value for "`larger` tends to exceed `smaller`".
  ///
  /// Exact (by counting rank arrangements) when there are no ties and both
  /// samples are small; otherwise the normal approximation with tie and
  /// continuity corrections, as scipy does for large samples.
  public static func pValue(larger: [Double], smaller: [Double]) -> Double {
    let m = larger.count
    let n = smaller.count
    guard m > 0, n > 0 else { return 1 }
    // U counts pairs where `larger` wins; ties count one half.
    var u = 0.0
    for a in larger {
      for b in smaller { u += a > b ? 1 : (a == b ? 0.5 : 0) }
    }
    let pooled = larger + smaller
    let hasTies = Set(pooled).count < pooled.count
    if !hasTies && m * n <= 2500 {
      return exactUpperTail(u: Int(u.rounded()), m: m, n: n)
    }
    return normalUpperTail(u: u, m: m, n: n, pooled: pooled)
  }

  /// P(U ≥ u) under the null, by the number of ways m + n distinct ranks give each U.
  static func exactUpperTail(u: Int, m: Int, n: Int) -> Double {
    // counts[i][j][k]: arrangements of i "larger" and j "smaller" values with U = k. Rolled over i.
    let maximum = m * n
    var previous = [[Double]](repeating: [], count: n + 1)
    for j in 0...n { previous[j] = [1] + [Double](repeating: 0, count: maximum) }  // i = 0: U = 0
    for _ in 1...m {
      var current = [[Double]](repeating: [Double](repeating: 0, count: maximum + 1), count: n + 1)
      current[0][0] = 1
      for j in 1...n {
        // The largest value is either a "larger" one (it beats all j smaller: U += j) or a "smaller" one.
        for k in 0...maximum {
          var ways = current[j - 1][k]
          if k >= j { ways += previous[j][k - j] }
          current[j][k] = ways
        }
      }
      previous = current
    }
    let distribution = previous[n]
    let total = distribution.reduce(0, +)
    let tail = distribution[min(max(u, 0), maximum)...].reduce(0, +)
    return tail / total
  }

  static func normalUpperTail(u: Double, m: Int, n: Int, pooled: [Double]) -> Double {
    let total = Double(m + n)
    var tieTerm = 0.0
    var counts: [Double: Int] = [:]
    for value in pooled { counts[value, default: 0] += 1 }
    for (_, t) in counts where t > 1 { tieTerm += Double(t * t * t - t) }
    let mean = Double(m * n) / 2
    let variance = Double(m * n) / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
    guard variance > 0 else { return u > mean ? 0 : 1 }
    let z = (u - mean - 0.5) / variance.squareRoot()
    return 0.5 * erfc(z / 2.0.squareRoot())
  }
}
