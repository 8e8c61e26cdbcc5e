/// A smooth convex function a Newton method can minimise: its value and gradient at a point, and products with
/// its Hessian at the point last accepted.
protocol NewtonObjective: AnyObject {
  /// f(x), with ∇f(x) written into `gradient` (which arrives with the right length). A non-finite value marks
  /// a point outside the domain. The point becomes the *trial*.
  func evaluate(_ x: [Double], gradient: inout [Double]) -> Double
  /// Makes the last trial the current point, whose Hessian `hessianProduct` multiplies by.
  func acceptTrial()
  /// H·v at the current point, written into `out`.
  func hessianProduct(_ v: [Double], into out: inout [Double])
  /// Sets a preconditioner M ≈ H at the current point (symmetric positive definite).
  func updatePreconditioner()
  /// M⁻¹·r, written into `out`.
  func precondition(_ residual: [Double], into out: inout [Double])
}

/// Trust-region Newton with preconditioned conjugate gradients: minimises a smooth convex function from its
/// value, gradient and Hessian-vector products. The method of Lin, Weng and Keerthi's TRON (LIBLINEAR's
/// logistic regression), with Steihaug's truncated conjugate gradients in the preconditioner's norm.
///
/// Each iteration solves H·s = −g by conjugate gradients, preconditioned by the objective (the Hessian's
/// diagonal), inside a trust region ‖s‖_M ≤ Δ, to a relative residual that tightens as the gradient vanishes
/// (min(0.5, √‖g‖)): steps far from the optimum are cheap, and those near it are Newton steps, which converge
/// quadratically. A step is taken when the function falls by at least 10⁻⁴ of what the quadratic model
/// predicts (where both falls are within rounding of the value, when the gradient shrinks instead); Δ grows or
/// shrinks with how well the model predicted, by TRON's rules. Where the loss flattens (classes nearly
/// separated, rare categories), the region keeps a step along a direction of little curvature from
/// overshooting, which a line search along the full Newton step does not (Forbes 2000: 26 iterations against
/// 133).
///
/// It stops when every gradient component is at most `gradientTolerance` *and* the step just taken moved no
/// parameter by more than `stepTolerance` (relative to the largest parameter, at least 1) or was no longer a
/// quarter of the one before (steps that stop shrinking are rounding). So an ill-conditioned fit, whose small
/// gradient still hides an error along flat directions, takes the Newton steps that remove it: after a step
/// of 1e-9, the next would be of the order of its square.
///
/// A Hessian-vector product costs about one gradient, so an iteration costs a few gradients, and an
/// iteration count in the tens replaces L-BFGS's hundreds or thousands of evaluations where the curvature
/// varies much (many classes, near-separable classes, rare categories). Everything runs in a fixed order on
/// the caller's thread: the same inputs give bit-identical results.
struct NewtonCG {
  var gradientTolerance: Double
  var stepTolerance = 1e-9
  /// Newton iterations at most.
  var maxIterations: Int
  /// Conjugate-gradient iterations per Newton step at most.
  var maxInnerIterations = 200

  /// Minimises `objective` from `start`. The result reports iterations (accepted steps), evaluations of the
  /// function, and whether both tolerances were met; a run that can no longer make progress (the region
  /// shrunk to nothing, or every change within rounding) reports a failed search unless the gradient is small.
  func minimize(from start: [Double], objective: NewtonObjective) -> LBFGSResult {
    let n = start.count
    var x = start
    var gradient = [Double](repeating: 0, count: n)
    var value = objective.evaluate(x, gradient: &gradient)
    var evaluations = 1
    func result(_ status: LBFGSResult.Status, _ iterations: Int) -> LBFGSResult {
      LBFGSResult(
        solution: x, value: value, gradient: gradient, iterations: iterations, evaluations: evaluations,
        status: status)
    }
    guard value.isFinite, gradient.allSatisfy(\.isFinite) else { return result(.nonFiniteStart, 0) }
    objective.acceptTrial()
    if LBFGS.maxAbs(gradient) <= gradientTolerance { return result(.converged, 0) }

    var solver = ConjugateGradients(dimension: n)
    var trial = [Double](repeating: 0, count: n)
    var trialGradient = [Double](repeating: 0, count: n)
    var previousStep = Double.infinity
    var iterations = 0
    var attempts = 0
    objective.updatePreconditioner()
    var radius = solver.preconditionedNorm(gradient, objective: objective)
    while iterations < maxIterations && attempts < 4 * maxIterations + 20 {
      attempts += 1
      let gradientNorm = Self.norm(gradient)
      let forcing = min(0.5, gradientNorm.squareRoot())
      let boundary = solver.solve(
        gradient: gradient, radius: radius, tolerance: forcing * gradientNorm, maxIterations: maxInnerIterations,
        objective: objective)
      let step = solver.step
      var largestStep = 0.0
      for i in 0..<n {
        trial[i] = x[i] + step[i]
        largestStep = max(largestStep, abs(step[i]))
      }
      let stepNorm = solver.stepNorm
      let slope = Self.dot(gradient, step)
      let predicted = -0.5 * (slope - Self.dot(step, solver.residual))
      let trialValue = objective.evaluate(trial, gradient: &trialGradient)
      evaluations += 1
      let finite = trialValue.isFinite && trialGradient.allSatisfy(\.isFinite)
      let actual = finite ? value - trialValue : -.infinity
      if attempts == 1 { radius = min(radius, stepNorm) }
      let curvature = trialValue - value - slope
      let alpha = !finite || curvature <= 0 ? Self.sigma3 : max(Self.sigma1, -0.5 * (slope / curvature))
      if actual < Self.eta0 * predicted {
        radius = min(alpha * stepNorm, Self.sigma2 * radius)
      } else if actual < Self.eta1 * predicted {
        radius = max(Self.sigma1 * radius, min(alpha * stepNorm, Self.sigma2 * radius))
      } else if actual < Self.eta2 * predicted {
        radius = max(Self.sigma1 * radius, min(alpha * stepNorm, Self.sigma3 * radius))
      } else if boundary {
        radius = Self.sigma3 * radius
      } else {
        radius = max(radius, min(alpha * stepNorm, Self.sigma3 * radius))
      }
      let noise = Self.noise * abs(value)
      let withinNoise = predicted <= noise && abs(actual) <= noise
      let accepted =
        finite
        && (withinNoise ? LBFGS.maxAbs(trialGradient) < LBFGS.maxAbs(gradient) : actual > Self.eta0 * predicted)
      if accepted {
        swap(&x, &trial)
        swap(&gradient, &trialGradient)
        value = trialValue
        objective.acceptTrial()
        iterations += 1
        // Converged once the gradient is small and the steps have either become negligible or stopped
        // shrinking (they are then the rounding of the gradient, not an error left to remove).
        if LBFGS.maxAbs(gradient) <= gradientTolerance
          && (largestStep <= stepTolerance * max(1, LBFGS.maxAbs(x)) || largestStep > 0.25 * previousStep)
        {
          return result(.converged, iterations)
        }
        previousStep = largestStep
        objective.updatePreconditioner()
      } else if withinNoise || !(radius > 0) {
        return result(LBFGS.maxAbs(gradient) <= gradientTolerance ? .converged : .lineSearchFailed, iterations)
      }
    }
    return result(LBFGS.maxAbs(gradient) <= gradientTolerance ? .converged : .iterationLimit, iterations)
  }

  // TRON's constants: a step is taken above eta0 of the predicted decrease; the radius follows the others.
  static let eta0 = 1e-4
  static let eta1 = 0.25
  static let eta2 = 0.75
  static let sigma1 = 0.25
  static let sigma2 = 0.5
  static let sigma3 = 4.0
  /// Falls below this share of the value are rounding, judged by the gradient instead.
  static let noise = 1e-12

  static func dot(_ a: [Double], _ b: [Double]) -> Double {
    var sum = 0.0
    for i in 0..<a.count { sum += a[i] * b[i] }
    return sum
  }

  static func norm(_ a: [Double]) -> Double { dot(a, a).squareRoot() }
}

/// Preconditioned conjugate gradients for H·s = −g from s = 0 within ‖s‖_M ≤ radius (Steihaug), reusing its
/// vectors.
private struct ConjugateGradients {
  /// The step found.
  var step: [Double]
  /// ‖step‖_M.
  var stepNorm = 0.0
  /// −g − H·step.
  var residual: [Double]
  var iterations = 0
  private var preconditioned: [Double]
  private var direction: [Double]
  private var product: [Double]
  private var scaledStep: [Double]
  private var scaledDirection: [Double]

  init(dimension n: Int) {
    step = [Double](repeating: 0, count: n)
    residual = step
    preconditioned = step
    direction = step
    product = step
    scaledStep = step
    scaledDirection = step
  }

  /// ‖v‖ in the preconditioner's inverse norm, √(vᵀM⁻¹v): the trust region's size for the gradient.
  mutating func preconditionedNorm(_ v: [Double], objective: NewtonObjective) -> Double {
    objective.precondition(v, into: &preconditioned)
    return NewtonCG.dot(v, preconditioned).squareRoot()
  }

  /// Iterates until ‖r‖ ≤ tolerance, the boundary, or `maxIterations`; returns whether it stopped at the
  /// boundary.
  mutating func solve(
    gradient: [Double], radius: Double, tolerance: Double, maxIterations: Int, objective: NewtonObjective
  ) -> Bool {
    let n = gradient.count
    for i in 0..<n {
      step[i] = 0
      residual[i] = -gradient[i]
    }
    objective.precondition(residual, into: &preconditioned)
    for i in 0..<n { direction[i] = preconditioned[i] }
    var rz = NewtonCG.dot(residual, preconditioned)
    // ‖s‖_M² grows by 2α·sᵀMd + α²·dᵀMd; M·d and M·s follow from the recurrences (M·z = r).
    var sMs = 0.0
    var sMd = 0.0
    var dMd = rz
    iterations = 0
    stepNorm = 0
    while iterations < maxIterations && NewtonCG.norm(residual) > tolerance {
      objective.hessianProduct(direction, into: &product)
      let curvature = NewtonCG.dot(direction, product)
      var alpha = rz / curvature
      let next = sMs + 2 * alpha * sMd + alpha * alpha * dMd
      if !(curvature > 0) || next > radius * radius {
        // The positive root τ of ‖s + τd‖_M = radius.
        let gap = radius * radius - sMs
        let root = (sMd * sMd + dMd * gap).squareRoot()
        alpha = sMd >= 0 ? gap / (sMd + root) : (root - sMd) / dMd
        for i in 0..<n {
          step[i] += alpha * direction[i]
          residual[i] -= alpha * product[i]
        }
        stepNorm = radius
        iterations += 1
        return true
      }
      iterations += 1
      for i in 0..<n {
        step[i] += alpha * direction[i]
        residual[i] -= alpha * product[i]
      }
      sMs = next
      stepNorm = sMs.squareRoot()
      objective.precondition(residual, into: &preconditioned)
      let rzNext = NewtonCG.dot(residual, preconditioned)
      let beta = rzNext / rz
      rz = rzNext
      sMd = beta * (sMd + alpha * dMd)
      dMd = rz + beta * beta * dMd
      for i in 0..<n { direction[i] = preconditioned[i] + beta * direction[i] }
    }
    return false
  }
}
