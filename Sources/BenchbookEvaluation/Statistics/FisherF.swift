/// The F distribution's upper tail, for the Iman–Davenport form of Friedman's test.
public struct FisherF: Sendable {
  public let numeratorDegrees: Double
  public let denominatorDegrees: Double

  public init(numeratorDegrees: Double, denominatorDegrees: Double) {
    precondition(numeratorDegrees > 0 && denominatorDegrees > 0, "degrees of freedom must be positive")
    self.numeratorDegrees = numeratorDegrees
    self.denominatorDegrees = denominatorDegrees
  }

  /// P(F ≥ f) = I_{d₂/(d₂ + d₁f)}(d₂/2, d₁/2): the regularised beta taken at the small end, so a tiny tail
  /// keeps its relative precision.
  public func survival(_ f: Double) -> Double {
    if f.isNaN { return .nan }
    if f <= 0 { return 1 }
    if f == .infinity { return 0 }
    let (d1, d2) = (numeratorDegrees, denominatorDegrees)
    return RegularizedBeta.value(x: d2 / (d2 + d1 * f), a: d2 / 2, b: d1 / 2)
  }
}
