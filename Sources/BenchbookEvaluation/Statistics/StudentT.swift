import Foundation

/// Student's t distribution, enough of it for tests and intervals.
public struct StudentT: Sendable {
  public let degreesOfFreedom: Double

  public init(degreesOfFreedom: Double) {
    precondition(degreesOfFreedom > 0, "degrees of freedom must be positive")
    self.degreesOfFreedom = degreesOfFreedom
  }

  /// P(|T| ≥ |t|).
  public func twoSidedPValue(_ t: Double) -> Double {
    guard t.isFinite else { return t.isNaN ? .nan : 0 }
    let v = degreesOfFreedom
    return RegularizedBeta.value(x: v / (v + t * t), a: v / 2, b: 0.5)
  }

  /// P(T ≤ t).
  public func cdf(_ t: Double) -> Double {
    let tail = twoSidedPValue(t) / 2
    return t >= 0 ? 1 - tail : tail
  }

  /// The t with P(T ≤ t) = p, found by bisection on the CDF.
  public func quantile(_ p: Double) -> Double {
    precondition(p > 0 && p < 1, "probability must be in (0, 1)")
    if p == 0.5 { return 0 }
    var low = -1.0
    var high = 1.0
    while cdf(low) > p { low *= 2 }
    while cdf(high) < p { high *= 2 }
    for _ in 0..<200 {
      let middle = (low + high) / 2
      if cdf(middle) < p { low = middle } else { high = middle }
      if high - low <= 1e-13 * max(1, abs(middle)) { break }
    }
    return (low + high) / 2
  }
}

/// The regularised incomplete beta function I_x(a, b), by its continued
/// fraction evaluated with the modified Lentz method.
enum RegularizedBeta {
  static func value(x: Double, a: Double, b: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let logFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
    // The fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
    if x < (a + 1) / (a + b + 2) {
      return exp(logFront) * continuedFraction(x: x, a: a, b: b) / a
    }
    return 1 - exp(logFront) * continuedFraction(x: 1 - x, a: b, b: a) / b
  }

  private static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var result = d
    for m in 1...1000 {
      let m = Double(m)
      // Even step.
      var numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
      d = 1 + numerator * d
      if abs(d) < tiny { d = tiny }
      c = 1 + numerator / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      result *= d * c
      // Odd step.
      numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
      d = 1 + numerator * d
      if abs(d) < tiny { d = tiny }
      c = 1 + numerator / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let delta = d * c
      result *= delta
      if abs(delta - 1) < 1e-15 { break }
    }
    return result
  }
}
