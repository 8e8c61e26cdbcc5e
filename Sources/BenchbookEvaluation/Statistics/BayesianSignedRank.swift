import BenchbookData
import Foundation

/// The Bayesian signed-rank test with a region of practical equivalence (Benavoli, Corani, Demšar and Zaffalon,
/// JMLR 18, 2017, section 5.2): how probable it is that model A is practically better than B, that the two are
/// practically equivalent, and that B is practically better, from their scores on several datasets.
///
/// The posterior of the differences' distribution is a Dirichlet process; as in baycomp's `two_on_multiple`, the
/// prior puts weight 0.5 on one pseudo-observation at zero and each dataset's difference z_i gets weight 1. For
/// each draw w of the Dirichlet weights, θ_A = Σ_ij w_i w_j H(z_i + z_j − 2r), θ_B = Σ_ij w_i w_j H(−z_i − z_j − 2r)
/// and θ_= = 1 − θ_A − θ_B, where r is the rope and H the step function (½ at 0). A draw votes for the largest θ
/// (the first of A, =, B among equals); the probabilities are the shares of the votes.
///
/// The Dirichlet draws are normalised gammas from Benchbook's own `SeededGenerator` (Gamma(1) = −log U,
/// Gamma(½) = −log U · cos²(2πV)), so the same seed gives the same probabilities, bit for bit, on every run.
public struct BayesianSignedRank: Sendable, Hashable {
  /// The draws a study uses: each probability is then within about 0.0016 (one standard error, at ½) of its
  /// limit.
  public static let defaultSamples = 100_000
  /// The Dirichlet weight of the pseudo-observation at zero (baycomp's `prior`).
  public static let prior = 0.5

  public var aBetter: Double
  public var equivalent: Double
  public var bBetter: Double

  /// - Parameters:
  ///   - differences: per dataset, B's score − A's score for a score where lower is better (a log-loss): positive
  ///     where A did better.
  ///   - rope: half-width of the region of practical equivalence, in the score's units (0 for none).
  public init(differences: [Double], rope: Double, samples: Int = defaultSamples, seed: UInt64) {
    precondition(!differences.isEmpty && samples >= 1 && rope >= 0, "differences, samples and a rope ≥ 0")
    // The pseudo-observation first, then the datasets, sorted so that each sum's sign is read off a prefix or
    // suffix: float addition is monotone, so z_i + z_j > c holds for a suffix of j in ascending order.
    let z = [0.0] + differences
    let order = z.indices.sorted { z[$0] < z[$1] || (z[$0] == z[$1] && $0 < $1) }
    let sorted = order.map { z[$0] }
    let n = z.count
    let threshold = 2 * rope
    // For each i (sorted): the first j with z_i + z_j > 2r and with ≥ 2r; the end of those with < −2r, ≤ −2r.
    var aboveStart = [Int](repeating: n, count: n)
    var atLeastStart = [Int](repeating: n, count: n)
    var belowEnd = [Int](repeating: 0, count: n)
    var atMostEnd = [Int](repeating: 0, count: n)
    for i in 0..<n {
      for j in 0..<n {
        let sum = sorted[i] + sorted[j]
        if sum > threshold { aboveStart[i] = min(aboveStart[i], j) }
        if sum >= threshold { atLeastStart[i] = min(atLeastStart[i], j) }
        if -sum > threshold { belowEnd[i] = j + 1 }
        if -sum >= threshold { atMostEnd[i] = j + 1 }
      }
    }
    var generator = SeededGenerator(seed: seed)
    var weights = [Double](repeating: 0, count: n)
    var prefix = [Double](repeating: 0, count: n + 1)
    var votes = (a: 0, equal: 0, b: 0)
    for _ in 0..<samples {
      for index in 0..<n {
        let exponential = -log(Self.unit(&generator))
        weights[index] = index == 0 ? exponential * Self.squaredCosine(&generator) : exponential
      }
      // Unnormalised: comparing θ_A, θ_= and θ_B needs no division by (Σ w)².
      for position in 0..<n { prefix[position + 1] = prefix[position] + weights[order[position]] }
      let total = prefix[n]
      var a = 0.0
      var b = 0.0
      for i in 0..<n {
        let w = weights[order[i]]
        let above = (total - prefix[aboveStart[i]]) + 0.5 * (prefix[aboveStart[i]] - prefix[atLeastStart[i]])
        let below = prefix[belowEnd[i]] + 0.5 * (prefix[atMostEnd[i]] - prefix[belowEnd[i]])
        a += w * above
        b += w * below
      }
      let equal = total * total - a - b
      if a >= equal && a >= b {
        votes.a += 1
      } else if equal >= b {
        votes.equal += 1
      } else {
        votes.b += 1
      }
    }
    let count = Double(samples)
    aBetter = Double(votes.a) / count
    equivalent = Double(votes.equal) / count
    bBetter = Double(votes.b) / count
  }

  /// A uniform number in (0, 1]: 53 random bits, never zero, so its logarithm is finite.
  static func unit(_ generator: inout SeededGenerator) -> Double {
    Double((generator.next() >> 11) + 1) * 0x1p-53
  }

  /// cos²(2πV) for V uniform: Beta(½, ½), which turns a Gamma(1) draw into a Gamma(½) one.
  static func squaredCosine(_ generator: inout SeededGenerator) -> Double {
    let c = cos(2 * Double.pi * Double(generator.next() >> 11) * 0x1p-53)
    return c * c
  }
}
