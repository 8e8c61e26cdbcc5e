import Foundation

/// Whether a model's probabilities can be acted on, in numbers, from its pooled out-of-fold predictions
/// (`CalibrationPoints.pooled`): the expected calibration error, and for two classes the calibration slope and
/// intercept and Murphy's decomposition of the Brier score. `docs/results.md` defines each exactly.
public struct CalibrationMeasures: Sendable, Hashable {
  /// Equal-count bins: the rows sorted by probability and cut as numpy's `array_split` cuts them.
  public static let binCount = 10
  /// Probabilities are clipped to [ε, 1 − ε] before their logit is taken, as log-loss clips them.
  public static let logitClip = 1e-15

  /// Σ over bins of the bin's share of rows × |mean probability − observed rate|.
  public var ece: Double
  /// The logistic fit of the outcome on logit(p): slope 1 and intercept 0 when calibrated; a slope below 1 means
  /// probabilities too extreme (over-confident), above 1 too timid. `nil` for more than two classes, or when the
  /// fit has no finite optimum (outcomes separated by the probability, or every probability equal).
  public var slope: Double?
  public var intercept: Double?
  /// Murphy's decomposition over the same bins (two classes): Brier ≈ reliability − resolution + uncertainty.
  public var reliability: Double?
  public var resolution: Double?
  public var uncertainty: Double?
  /// Mean probability minus observed rate over all rows: above 0 the model claims more than happens (for more
  /// classes, mean confidence minus accuracy: over-confident).
  public var meanGap: Double

  /// - Parameter twoClasses: whether the points are a positive class's probabilities (slope, intercept and the
  ///   decomposition apply) or top-label confidences.
  public init?(_ points: CalibrationPoints, twoClasses: Bool) {
    let n = points.count
    guard n > 0 else { return nil }
    let order = (0..<n).sorted { (points.probabilities[$0], $0) < (points.probabilities[$1], $1) }
    let base = n / Self.binCount
    let larger = n % Self.binCount
    var start = 0
    var ece = 0.0
    var reliability = 0.0
    var binRates: [(share: Double, rate: Double)] = []
    for bin in 0..<Self.binCount {
      let size = base + (bin < larger ? 1 : 0)
      guard size > 0 else { continue }
      var predicted = 0.0
      var observed = 0.0
      for i in order[start..<(start + size)] {
        predicted += points.probabilities[i]
        observed += points.outcomes[i] ? 1 : 0
      }
      start += size
      let share = Double(size) / Double(n)
      let gap = predicted / Double(size) - observed / Double(size)
      ece += share * abs(gap)
      reliability += share * gap * gap
      binRates.append((share, observed / Double(size)))
    }
    self.ece = ece
    let meanProbability = points.probabilities.reduce(0, +) / Double(n)
    let rate = Double(points.outcomes.count { $0 }) / Double(n)
    meanGap = meanProbability - rate
    guard twoClasses else { return }
    self.reliability = reliability
    resolution = binRates.reduce(0.0) { $0 + $1.share * ($1.rate - rate) * ($1.rate - rate) }
    uncertainty = rate * (1 - rate)
    if let fit = Self.logisticRecalibration(points) { (intercept, slope) = fit }
  }

  /// The unpenalised maximum-likelihood fit of P(outcome) = σ(a + b·logit(p)) by Newton's method with step
  /// halving; `nil` when it has no finite optimum.
  static func logisticRecalibration(_ points: CalibrationPoints) -> (intercept: Double, slope: Double)? {
    let x = points.probabilities.map { p in
      let clipped = min(max(p, logitClip), 1 - logitClip)
      return log(clipped / (1 - clipped))
    }
    let y = points.outcomes.map { $0 ? 1.0 : 0.0 }
    func loss(_ a: Double, _ b: Double) -> Double {
      var total = 0.0
      for i in x.indices {
        let z = a + b * x[i]
        total += max(z, 0) + log1p(exp(-abs(z))) - y[i] * z
      }
      return total
    }
    // From the intercept-only fit, where every row weighs the same in the Hessian: from the identity, rows whose
    // probabilities sit at the clip would weigh 1e-15 each and the first step would overshoot by as much.
    let rate = y.reduce(0, +) / Double(y.count)
    guard rate > 0 && rate < 1 else { return nil }
    var (a, b) = (log(rate / (1 - rate)), 0.0)
    var current = loss(a, b)
    for _ in 0..<100 {
      var (g0, g1, h00, h01, h11) = (0.0, 0.0, 0.0, 0.0, 0.0)
      for i in x.indices {
        let s = 1 / (1 + exp(-(a + b * x[i])))
        let w = s * (1 - s)
        g0 += y[i] - s
        g1 += (y[i] - s) * x[i]
        h00 += w
        h01 += w * x[i]
        h11 += w * x[i] * x[i]
      }
      let determinant = h00 * h11 - h01 * h01
      guard determinant > 1e-12 * max(h00 * h11, .leastNormalMagnitude), determinant.isFinite else { return nil }
      let da = (h11 * g0 - h01 * g1) / determinant
      let db = (h00 * g1 - h01 * g0) / determinant
      var step = 1.0
      var next = loss(a + da, b + db)
      while !(next <= current) && step > 1e-10 {
        step /= 2
        next = loss(a + step * da, b + step * db)
      }
      guard next <= current else { return nil }
      (a, b) = (a + step * da, b + step * db)
      let moved = max(abs(step * da) / (1 + abs(a)), abs(step * db) / (1 + abs(b)))
      current = next
      if moved < 1e-13 { return abs(b) < 1e6 && a.isFinite ? (a, b) : nil }
    }
    return nil
  }
}
