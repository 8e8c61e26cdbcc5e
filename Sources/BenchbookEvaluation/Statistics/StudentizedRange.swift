import Foundation

/// The range of k independent standard normal values (the studentized range with infinitely many degrees of
/// freedom): what the Nemenyi test's critical value q_α is read from, computed rather than taken from a table.
///
/// P(R ≤ q) = k ∫ φ(z) [Φ(z) − Φ(z − q)]^(k−1) dz, integrated by Gauss–Legendre panels over |z| ≤ 9 (φ is below
/// 1e-17 beyond); the quantile by bisection on that CDF.
public struct StudentizedRange: Sendable {
  /// The number of values whose range is taken (models, for Nemenyi).
  public let groups: Int

  private static let rule = GaussLegendre(points: 20)
  private static let limit = 9.0
  private static let panels = 36

  public init(groups: Int) {
    precondition(groups >= 2, "a range needs at least two values")
    self.groups = groups
  }

  /// P(R ≤ q).
  public func cdf(_ q: Double) -> Double {
    if q.isNaN { return .nan }
    if q <= 0 { return 0 }
    if q == .infinity { return 1 }
    let k = Double(groups)
    let power = groups - 1
    let total = Self.rule.integrate(-Self.limit, Self.limit, panels: Self.panels) { z in
      let inside = Self.normalMass(from: z - q, to: z)
      return Self.density(z) * pow(inside, Double(power))
    }
    return min(1, max(0, k * total))
  }

  /// The q with P(R ≤ q) = p.
  public func quantile(_ p: Double) -> Double {
    precondition(p > 0 && p < 1, "probability must be in (0, 1)")
    var low = 0.0
    var high = 1.0
    while cdf(high) < p { high *= 2 }
    // Bisection to the last bit: the CDF is increasing, and each step halves the bracket.
    for _ in 0..<200 {
      let middle = (low + high) / 2
      if middle <= low || middle >= high { break }
      if cdf(middle) < p { low = middle } else { high = middle }
    }
    return (low + high) / 2
  }

  static func density(_ z: Double) -> Double {
    exp(-z * z / 2) / (2 * Double.pi).squareRoot()
  }

  /// Φ(b) − Φ(a) for a ≤ b, from whichever tail keeps it precise.
  static func normalMass(from a: Double, to b: Double) -> Double {
    let root2 = 2.0.squareRoot()
    if a >= 0 { return 0.5 * (erfc(a / root2) - erfc(b / root2)) }
    if b <= 0 { return 0.5 * (erfc(-b / root2) - erfc(-a / root2)) }
    return 1 - 0.5 * (erfc(-a / root2) + erfc(b / root2))
  }
}
