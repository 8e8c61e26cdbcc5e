/// Limited-memory BFGS: minimises a smooth function from its value and gradient.
///
/// The search direction comes from the classic two-loop recursion over the last
/// `memory` steps; each step length satisfies the strong Wolfe conditions, or
/// Hager and Zhang's approximate Wolfe conditions once function values are
/// within rounding noise of each other (near an optimum the gradient is still
/// informative when differences of function values no longer are).
///
/// Everything runs in a fixed order on the caller's thread, so the same inputs
/// always give bit-identical results.
public struct LBFGS: Sendable, Hashable {
  /// How many recent (step, gradient change) pairs approximate the inverse Hessian.
  public var memory: Int
  /// Converged once every gradient component is at most this in absolute value.
  public var gradientTolerance: Double
  /// Upper bound on accepted steps.
  public var maxIterations: Int
  /// Upper bound on function evaluations within one line search.
  public var maxLineSearchEvaluations: Int

  public init(
    memory: Int = 10, gradientTolerance: Double = 1e-8, maxIterations: Int = 1000,
    maxLineSearchEvaluations: Int = 50
  ) {
    precondition(memory >= 1, "L-BFGS needs memory >= 1")
    precondition(gradientTolerance >= 0, "gradient tolerance must be >= 0")
    precondition(maxIterations >= 0, "maxIterations must be >= 0")
    precondition(maxLineSearchEvaluations >= 1, "a line search needs at least one evaluation")
    self.memory = memory
    self.gradientTolerance = gradientTolerance
    self.maxIterations = maxIterations
    self.maxLineSearchEvaluations = maxLineSearchEvaluations
  }

  /// Sufficient-decrease constant of the Wolfe conditions.
  static let decreaseConstant = 1e-4
  /// Curvature constant of the Wolfe conditions (0.9 suits quasi-Newton steps).
  static let curvatureConstant = 0.9
  /// Relative rise in the function value the approximate Wolfe conditions tolerate.
  static let noiseTolerance = 1e-12

  /// Minimises `objective` starting from `start`.
  /// - Parameters:
  ///   - start: the first iterate; its length is the problem's dimension.
  ///   - objective: returns f(x) and writes ∇f(x) into its second argument,
  ///     which arrives with the right length. A non-finite value marks a point
  ///     outside the domain; the line search then steps back.
  /// - Returns: the last accepted iterate and why the iteration stopped.
  public func minimize(
    from start: [Double], objective: (_ x: [Double], _ gradient: inout [Double]) -> Double
  ) -> LBFGSResult {
    precondition(memory >= 1 && gradientTolerance >= 0 && maxLineSearchEvaluations >= 1, "invalid L-BFGS settings")
    let dimension = start.count
    var x = start
    var gradient = [Double](repeating: 0, count: dimension)
    var value = objective(x, &gradient)
    var evaluations = 1
    func result(_ status: LBFGSResult.Status, iterations: Int) -> LBFGSResult {
      LBFGSResult(
        solution: x, value: value, gradient: gradient, iterations: iterations, evaluations: evaluations,
        status: status)
    }
    guard value.isFinite, gradient.allSatisfy(\.isFinite) else {
      return result(.nonFiniteStart, iterations: 0)
    }
    if Self.maxAbs(gradient) <= gradientTolerance { return result(.converged, iterations: 0) }

    var history = CurvatureHistory(capacity: memory, dimension: dimension)
    var direction = [Double](repeating: 0, count: dimension)
    var iteration = 0
    while iteration < maxIterations {
      history.applyInverseHessian(to: gradient, into: &direction)
      for i in 0..<dimension { direction[i] = -direction[i] }
      var slope = Self.dot(gradient, direction)
      if !(slope < 0) {
        // Rounding made the quasi-Newton direction useless: restart from steepest descent.
        history.removeAll()
        for i in 0..<dimension { direction[i] = -gradient[i] }
        slope = -Self.dot(gradient, gradient)
      }
      // Without curvature information, take a first step of unit length in the largest coordinate.
      let initialStep = history.isEmpty ? min(1, 1 / Self.maxAbs(direction)) : 1
      var search = LineSearch(
        origin: x, value: value, slope: slope, direction: direction,
        maxEvaluations: maxLineSearchEvaluations)
      let found = search.run(initialStep: initialStep, objective: objective)
      evaluations += search.evaluations
      guard let step = found else {
        if history.isEmpty { return result(.lineSearchFailed, iterations: iteration) }
        // Old curvature pairs can mislead; try once more from steepest descent.
        history.removeAll()
        continue
      }
      iteration += 1
      history.append(
        step: (0..<dimension).map { step.point[$0] - x[$0] },
        gradientChange: (0..<dimension).map { step.gradient[$0] - gradient[$0] })
      x = step.point
      value = step.value
      gradient = step.gradient
      if Self.maxAbs(gradient) <= gradientTolerance { return result(.converged, iterations: iteration) }
    }
    return result(.iterationLimit, iterations: iteration)
  }

  static func dot(_ a: [Double], _ b: [Double]) -> Double {
    var sum = 0.0
    for i in 0..<a.count { sum += a[i] * b[i] }
    return sum
  }

  static func maxAbs(_ a: [Double]) -> Double {
    var largest = 0.0
    for v in a { largest = max(largest, abs(v)) }
    return largest
  }
}

/// Where an L-BFGS run ended and why.
public struct LBFGSResult: Sendable, Equatable {
  public enum Status: String, Sendable, Equatable {
    /// The gradient tolerance was met.
    case converged
    /// `maxIterations` steps were taken without meeting the tolerance.
    case iterationLimit
    /// No acceptable step exists along steepest descent (the function is flat
    /// to rounding there, or not smooth).
    case lineSearchFailed
    /// The starting point has a non-finite value or gradient.
    case nonFiniteStart
  }

  public var solution: [Double]
  public var value: Double
  public var gradient: [Double]
  /// Accepted steps.
  public var iterations: Int
  /// Calls of the objective, the first one included.
  public var evaluations: Int
  public var status: Status

  public var converged: Bool { status == .converged }
}

/// The last few (step, gradient change) pairs, oldest first.
private struct CurvatureHistory {
  let capacity: Int
  let dimension: Int
  var steps: [[Double]] = []
  var changes: [[Double]] = []
  var inverseCurvatures: [Double] = []

  init(capacity: Int, dimension: Int) {
    self.capacity = capacity
    self.dimension = dimension
  }

  var isEmpty: Bool { steps.isEmpty }

  mutating func removeAll() {
    steps.removeAll()
    changes.removeAll()
    inverseCurvatures.removeAll()
  }

  /// Keeps the pair only when it shows positive curvature, so the approximation stays positive definite.
  mutating func append(step: [Double], gradientChange: [Double]) {
    let curvature = LBFGS.dot(step, gradientChange)
    let changeNorm = LBFGS.dot(gradientChange, gradientChange)
    guard curvature > Double.ulpOfOne * changeNorm, curvature.isFinite else { return }
    if steps.count == capacity {
      steps.removeFirst()
      changes.removeFirst()
      inverseCurvatures.removeFirst()
    }
    steps.append(step)
    changes.append(gradientChange)
    inverseCurvatures.append(1 / curvature)
  }

  /// Two-loop recursion: writes H·g, with H the L-BFGS inverse-Hessian estimate.
  func applyInverseHessian(to gradient: [Double], into out: inout [Double]) {
    for i in 0..<dimension { out[i] = gradient[i] }
    let count = steps.count
    guard count > 0 else { return }
    var alphas = [Double](repeating: 0, count: count)
    for k in stride(from: count - 1, through: 0, by: -1) {
      let alpha = inverseCurvatures[k] * LBFGS.dot(steps[k], out)
      alphas[k] = alpha
      let change = changes[k]
      for i in 0..<dimension { out[i] -= alpha * change[i] }
    }
    // Scale by sᵀy / yᵀy of the newest pair: the usual estimate of the Hessian's size.
    let newest = changes[count - 1]
    let scale = 1 / (inverseCurvatures[count - 1] * LBFGS.dot(newest, newest))
    for i in 0..<dimension { out[i] *= scale }
    for k in 0..<count {
      let beta = inverseCurvatures[k] * LBFGS.dot(changes[k], out)
      let step = steps[k]
      let coefficient = alphas[k] - beta
      for i in 0..<dimension { out[i] += coefficient * step[i] }
    }
  }
}

/// One line search along a descent direction: bracketing, then zooming by safeguarded cubic interpolation.
private struct LineSearch {
  struct Trial {
    var step: Double
    var value: Double
    var slope: Double
    var point: [Double]
    var gradient: [Double]
  }

  let origin: [Double]
  let value: Double
  let slope: Double
  let direction: [Double]
  let maxEvaluations: Int
  var evaluations = 0

  init(origin: [Double], value: Double, slope: Double, direction: [Double], maxEvaluations: Int) {
    self.origin = origin
    self.value = value
    self.slope = slope
    self.direction = direction
    self.maxEvaluations = maxEvaluations
  }

  private mutating func evaluate(
    _ step: Double, _ objective: (_ x: [Double], _ gradient: inout [Double]) -> Double
  ) -> Trial {
    evaluations += 1
    var point = origin
    for i in 0..<point.count { point[i] += step * direction[i] }
    var gradient = [Double](repeating: 0, count: point.count)
    var trialValue = objective(point, &gradient)
    if !gradient.allSatisfy(\.isFinite) { trialValue = .infinity }
    let trialSlope = trialValue.isFinite ? LBFGS.dot(gradient, direction) : .nan
    return Trial(step: step, value: trialValue, slope: trialSlope, point: point, gradient: gradient)
  }

  private func decreasesEnough(_ trial: Trial) -> Bool {
    trial.value <= value + LBFGS.decreaseConstant * trial.step * slope
  }

  /// Strong Wolfe, or approximate Wolfe when the value has not risen beyond rounding noise.
  private func acceptable(_ trial: Trial) -> Bool {
    guard trial.value.isFinite else { return false }
    if decreasesEnough(trial) && abs(trial.slope) <= -LBFGS.curvatureConstant * slope { return true }
    let noise = LBFGS.noiseTolerance * abs(value)
    return trial.value <= value + noise && trial.slope >= LBFGS.curvatureConstant * slope
      && trial.slope <= (2 * LBFGS.decreaseConstant - 1) * slope
  }

  /// Returns an acceptable trial, or the best point with sufficient decrease if the budget runs out, or nil.
  mutating func run(
    initialStep: Double, objective: (_ x: [Double], _ gradient: inout [Double]) -> Double
  ) -> Trial? {
    let start = Trial(step: 0, value: value, slope: slope, point: origin, gradient: [])
    var previous = start
    var step = initialStep
    var best: Trial? = nil
    // Bracketing: grow the step until the minimum along the line is enclosed.
    while evaluations < maxEvaluations {
      let trial = evaluate(step, objective)
      if acceptable(trial) { return trial }
      if !trial.value.isFinite || !decreasesEnough(trial) || trial.value >= previous.value {
        return zoom(low: previous, high: trial, best: best, objective)
      }
      best = trial
      if trial.slope >= 0 { return zoom(low: trial, high: previous, best: best, objective) }
      let next = Self.cubicMinimizer(previous, trial)
      let lower = trial.step + 1.1 * (trial.step - previous.step)
      let upper = trial.step + 8 * (trial.step - previous.step)
      previous = trial
      step = next.map { min(max($0, lower), upper) } ?? upper
    }
    return best
  }

  /// Narrows [low, high] (low has sufficient decrease and the lower value) until a step is acceptable.
  private mutating func zoom(
    low startLow: Trial, high startHigh: Trial, best startBest: Trial?,
    _ objective: (_ x: [Double], _ gradient: inout [Double]) -> Double
  ) -> Trial? {
    var low = startLow
    var high = startHigh
    var best = startBest
    while evaluations < maxEvaluations {
      let left = min(low.step, high.step)
      let right = max(low.step, high.step)
      let width = right - left
      if width <= Double.ulpOfOne * right { break }
      // Interpolate, but keep clear of the ends so the interval keeps shrinking.
      let margin = 0.1 * width
      var step = high.value.isFinite ? (Self.cubicMinimizer(low, high) ?? Self.quadraticMinimizer(low, high)) : nil
      if let candidate = step, !(candidate >= left + margin && candidate <= right - margin) { step = nil }
      let trial = evaluate(step ?? (left + right) / 2, objective)
      if acceptable(trial) { return trial }
      if !trial.value.isFinite || !decreasesEnough(trial) || trial.value >= low.value {
        high = trial
      } else {
        best = trial
        if trial.slope * (high.step - low.step) >= 0 { high = low }
        low = trial
      }
    }
    return best
  }

  /// Minimiser of the cubic matching both values and slopes, if it has one.
  static func cubicMinimizer(_ a: Trial, _ b: Trial) -> Double? {
    let d1 = a.slope + b.slope - 3 * (a.value - b.value) / (a.step - b.step)
    let radicand = d1 * d1 - a.slope * b.slope
    guard radicand >= 0 else { return nil }
    let d2 = (b.step > a.step ? 1.0 : -1.0) * radicand.squareRoot()
    let denominator = b.slope - a.slope + 2 * d2
    guard denominator != 0 else { return nil }
    let step = b.step - (b.step - a.step) * (b.slope + d2 - d1) / denominator
    return step.isFinite ? step : nil
  }

  /// Minimiser of the parabola through a's value and slope and b's value, if it opens upwards.
  static func quadraticMinimizer(_ a: Trial, _ b: Trial) -> Double? {
    let delta = b.step - a.step
    let curvature = (b.value - a.value - a.slope * delta) / (delta * delta)
    guard curvature > 0 else { return nil }
    let step = a.step - a.slope / (2 * curvature)
    return step.isFinite ? step : nil
  }
}
