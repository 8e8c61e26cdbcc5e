import BenchbookModels
import Foundation
import Testing

@Suite struct LBFGSTests {
  static func rosenbrock(_ x: [Double], _ g: inout [Double]) -> Double {
    let a = 1 - x[0]
    let b = x[1] - x[0] * x[0]
    g[0] = -2 * a - 400 * x[0] * b
    g[1] = 200 * b
    return a * a + 100 * b * b
  }

  @Test func minimisesRosenbrock() {
    let result = LBFGS(gradientTolerance: 1e-10).minimize(from: [-1.2, 1], objective: Self.rosenbrock)
    #expect(result.status == .converged)
    #expect(abs(result.solution[0] - 1) < 1e-8)
    #expect(abs(result.solution[1] - 1) < 1e-8)
    #expect(result.value < 1e-16)
    #expect(result.iterations < 100)
  }

  @Test func minimisesAnIllConditionedQuadratic() {
    // f(x) = ½ Σ aᵢ (xᵢ − bᵢ)² with curvatures spanning four orders of magnitude.
    // (scipy's L-BFGS-B needs 71 iterations here; with n > memory and a wider spread it needs thousands.)
    let n = 8
    let curvature = (0..<n).map { pow(10, 4 * Double($0) / Double(n - 1)) }
    let target = (0..<n).map { Double($0) - 3.5 }
    let result = LBFGS(gradientTolerance: 1e-9).minimize(from: [Double](repeating: 0, count: n)) { x, g in
      var value = 0.0
      for i in 0..<n {
        let r = x[i] - target[i]
        g[i] = curvature[i] * r
        value += 0.5 * curvature[i] * r * r
      }
      return value
    }
    #expect(result.converged)
    #expect(result.iterations < 200)
    for i in 0..<n { #expect(abs(result.solution[i] - target[i]) <= 1e-9 / curvature[i] + 1e-15) }
    #expect(result.gradient.allSatisfy { abs($0) <= 1e-9 })
  }

  @Test func stepsBackFromOutsideTheDomain() {
    // Defined only below 0.95; the first trial step lands on 1 and must be shortened.
    let result = LBFGS(gradientTolerance: 1e-12).minimize(from: [0]) { x, g in
      guard x[0] < 0.95 else { return .infinity }
      g[0] = 2 * (x[0] - 0.9)
      return (x[0] - 0.9) * (x[0] - 0.9)
    }
    #expect(result.converged)
    #expect(abs(result.solution[0] - 0.9) < 1e-12)
  }

  @Test func reportsTheIterationLimit() {
    let result = LBFGS(maxIterations: 3).minimize(from: [-1.2, 1], objective: Self.rosenbrock)
    #expect(result.status == .iterationLimit)
    #expect(!result.converged)
    #expect(result.iterations == 3)
    #expect(result.value < 24.2)  // f(−1.2, 1) = 24.2; every accepted step decreases f
  }

  @Test func stopsAtAStationaryStart() {
    let result = LBFGS().minimize(from: [1, 1], objective: Self.rosenbrock)
    #expect(result.converged)
    #expect(result.iterations == 0)
    #expect(result.evaluations == 1)
  }

  @Test func rejectsANonFiniteStart() {
    let result = LBFGS().minimize(from: [0]) { _, g in
      g[0] = 1
      return .nan
    }
    #expect(result.status == .nonFiniteStart)
  }

  @Test func isDeterministic() {
    let a = LBFGS().minimize(from: [-1.2, 1], objective: Self.rosenbrock)
    let b = LBFGS().minimize(from: [-1.2, 1], objective: Self.rosenbrock)
    #expect(a == b)
  }
}
