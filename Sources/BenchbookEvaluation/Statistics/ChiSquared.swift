/// The chi-squared distribution's upper tail, for Friedman's test.
public struct ChiSquared: Sendable {
  public let degreesOfFreedom: Double

  public init(degreesOfFreedom: Double) {
    precondition(degreesOfFreedom > 0, "degrees of freedom must be positive")
    self.degreesOfFreedom = degreesOfFreedom
  }

  /// P(X ≥ x).
  public func survival(_ x: Double) -> Double {
    RegularizedGamma.upper(a: degreesOfFreedom / 2, x: x / 2)
  }
}
