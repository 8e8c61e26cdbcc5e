import Foundation

/// The regularised incomplete gamma functions P(a, x) and Q(a, x) = 1 − P(a, x), for the chi-squared
/// distribution's tails (Friedman's test).
///
/// P by its power series where it converges quickly (x < a + 1), Q by its continued fraction (modified
/// Lentz) elsewhere, so the small one of the two is computed directly and keeps its relative precision.
enum RegularizedGamma {
  /// P(a, x) = γ(a, x) / Γ(a).
  static func lower(a: Double, x: Double) -> Double {
    precondition(a > 0, "a must be positive")
    if x.isNaN { return .nan }
    if x <= 0 { return 0 }
    if x == .infinity { return 1 }
    return x < a + 1 ? series(a: a, x: x) : 1 - continuedFraction(a: a, x: x)
  }

  /// Q(a, x) = Γ(a, x) / Γ(a).
  static func upper(a: Double, x: Double) -> Double {
    precondition(a > 0, "a must be positive")
    if x.isNaN { return .nan }
    if x <= 0 { return 1 }
    if x == .infinity { return 0 }
    return x < a + 1 ? 1 - series(a: a, x: x) : continuedFraction(a: a, x: x)
  }

  /// e^(−x) x^a / Γ(a), the factor both expansions share.
  private static func front(a: Double, x: Double) -> Double {
    exp(-x + a * log(x) - lgamma(a))
  }

  /// P(a, x) = front · Σ_{n ≥ 0} x^n / (a (a + 1) ⋯ (a + n)).
  private static func series(a: Double, x: Double) -> Double {
    var denominator = a
    var term = 1 / a
    var sum = term
    for _ in 0..<10_000 {
      denominator += 1
      term *= x / denominator
      sum += term
      if abs(term) < abs(sum) * 1e-17 { break }
    }
    return sum * front(a: a, x: x)
  }

  /// Q(a, x) = front · 1 / (x + 1 − a − 1·(1 − a) / (x + 3 − a − 2·(2 − a) / (x + 5 − a − ⋯))).
  private static func continuedFraction(a: Double, x: Double) -> Double {
    let tiny = 1e-300
    var b = x + 1 - a
    var c = 1 / tiny
    var d = 1 / b
    var result = d
    for i in 1..<10_000 {
      let i = Double(i)
      let numerator = -i * (i - a)
      b += 2
      d = numerator * d + b
      if abs(d) < tiny { d = tiny }
      c = b + numerator / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let delta = d * c
      result *= delta
      if abs(delta - 1) < 1e-16 { break }
    }
    return result * front(a: a, x: x)
  }
}
