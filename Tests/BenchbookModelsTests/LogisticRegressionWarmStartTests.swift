import BenchbookData
@_spi(Testing) import BenchbookModels
import Foundation
import Testing

/// A warm start changes the path, never the answer: the optimum a cold start reaches.
///
/// It does not always shorten the path: L-BFGS works in coordinates whitened at zero weights, and
/// near a sharp optimum it needs about as many steps to learn the curvature from a close start as
/// from zero (wine without x0: 139 evaluations warm, 138 cold; without x12: 130 and 76).
@Suite struct LogisticRegressionWarmStartTests {
  /// Wine (13 unscaled features, 3 classes): the multinomial case the drop-column screen refits most.
  static func wine() throws -> (x: Matrix, labels: [Int], classCount: Int) {
    try DecisionTreeSeedTests.dataset("wine.csv")
  }

  static func largestGap(_ a: Matrix, _ b: Matrix) -> Double {
    zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
  }

  /// Without one feature, started from the full fit's other weights (the drop-column screen's refit).
  @Test(arguments: [0, 6, 12], LogisticRegression.Solver.allCases)
  func dropColumnRefitReachesTheColdOptimum(dropped: Int, solver: LogisticRegression.Solver) throws {
    let data = try Self.wine()
    let model = LogisticRegression()
    let full = try model.fit(data.x, labels: data.labels, classCount: data.classCount, from: nil, solver: solver)
    let kept = (0..<data.x.columns).filter { $0 != dropped }
    let x = data.x.selecting(columns: kept)
    let cold = try model.fit(x, labels: data.labels, classCount: data.classCount, from: nil, solver: solver)
    let warm = try model.fit(
      x, labels: data.labels, classCount: data.classCount, from: full.keepingColumns(kept), solver: solver)
    #expect(warm.converged && cold.converged)
    #expect(Self.largestGap(warm.predictProbabilities(x), cold.predictProbabilities(x)) < 1e-8)
  }

  /// Along a regularisation path (the use tuning over C can make of it), binary and multinomial.
  @Test(arguments: LogisticRegression.Solver.allCases)
  func regularisationPathReachesTheColdOptimum(solver: LogisticRegression.Solver) throws {
    let data = try Self.wine()
    let binaryLabels = data.labels.map { $0 == 1 ? 1 : 0 }
    for (labels, classCount) in [(data.labels, data.classCount), (binaryLabels, 2)] {
      var previous: FittedLogisticRegression?
      for C in [0.01, 0.1, 1, 10] {
        let model = LogisticRegression(C: C)
        let cold = try model.fit(data.x, labels: labels, classCount: classCount, from: nil, solver: solver)
        let warm = try model.fit(data.x, labels: labels, classCount: classCount, from: previous, solver: solver)
        #expect(warm.converged)
        #expect(Self.largestGap(warm.predictProbabilities(data.x), cold.predictProbabilities(data.x)) < 1e-8)
        previous = warm
      }
    }
  }

  /// Starting at the optimum itself costs next to nothing: the gradient already (nearly) vanishes.
  @Test(arguments: LogisticRegression.Solver.allCases)
  func startingAtTheOptimumStopsAtOnce(solver: LogisticRegression.Solver) throws {
    let data = try Self.wine()
    let model = LogisticRegression()
    let full = try model.fit(data.x, labels: data.labels, classCount: data.classCount, from: nil, solver: solver)
    let again = try model.fit(data.x, labels: data.labels, classCount: data.classCount, from: full, solver: solver)
    #expect(again.evaluations * 5 < full.evaluations, "\(again.evaluations) against \(full.evaluations) evaluations")
    #expect(Self.largestGap(again.predictProbabilities(data.x), full.predictProbabilities(data.x)) < 1e-9)
  }

  @Test func refusesAStartOfAnotherShape() throws {
    let data = try Self.wine()
    let model = LogisticRegression()
    let full = try model.fit(data.x, labels: data.labels, classCount: data.classCount)
    #expect(throws: ModelError.self) {
      try model.fit(data.x, labels: data.labels, classCount: data.classCount, from: full.keepingColumns([0, 1]))
    }
  }

  /// The leak audit's screens loosen a spec's tolerance to theirs, never tighten it.
  @Test func looseningKeepsTheLooserTolerance() {
    #expect(LogisticRegression(tol: 1e-12).loosened(to: 1e-6).tol == 1e-6)
    #expect(LogisticRegression(tol: 1e-3).loosened(to: 1e-6).tol == 1e-3)
    #expect(LogisticRegression(C: 0.5, tol: 1e-12).loosened(to: 1e-6).C == 0.5)
  }
}
