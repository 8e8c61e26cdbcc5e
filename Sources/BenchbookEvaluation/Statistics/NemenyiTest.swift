/// The Nemenyi test's critical difference: two models whose average ranks over N datasets differ by at least
/// CD = q_α √(k(k + 1)/(6N)) perform differently (Demšar, 2006, section 3.2.2), where q_α is the studentized
/// range's 1 − α quantile for k groups and infinite degrees of freedom, divided by √2.
public struct NemenyiTest: Sendable, Hashable {
  public var models: Int
  public var datasets: Int
  public var alpha: Double
  /// q_α as Demšar's table lists it (2.343 for three models at α = 0.05).
  public var criticalValue: Double
  public var criticalDifference: Double

  public init(models: Int, datasets: Int, alpha: Double) {
    precondition(models >= 2 && datasets >= 1, "at least two models and one dataset")
    precondition(alpha > 0 && alpha < 1, "alpha must be in (0, 1)")
    self.models = models
    self.datasets = datasets
    self.alpha = alpha
    criticalValue = StudentizedRange(groups: models).quantile(1 - alpha) / 2.0.squareRoot()
    criticalDifference = criticalValue * Self.spread(models: models, datasets: datasets)
  }

  /// The datasets the same difference of average ranks would need to reach the critical difference, assuming
  /// it stayed as it is: the smallest N with q_α √(k(k + 1)/(6N)) ≤ difference. `nil` for no difference.
  public func datasetsNeeded(for difference: Double) -> Int? {
    guard difference > 0 else { return nil }
    let k = Double(models)
    let exact = criticalValue * criticalValue * k * (k + 1) / (6 * difference * difference)
    guard exact < Double(Int.max / 2) else { return nil }
    var needed = max(1, Int(exact.rounded(.up)))
    // The rounding above may leave it one off where N is a whole number but for the last bit.
    while needed > 1 && criticalValue * Self.spread(models: models, datasets: needed - 1) <= difference { needed -= 1 }
    while criticalValue * Self.spread(models: models, datasets: needed) > difference { needed += 1 }
    return needed
  }

  static func spread(models: Int, datasets: Int) -> Double {
    let k = Double(models)
    return (k * (k + 1) / (6 * Double(datasets))).squareRoot()
  }
}
