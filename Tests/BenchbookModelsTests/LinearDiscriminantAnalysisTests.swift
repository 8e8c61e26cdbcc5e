import BenchbookData
import BenchbookModels
import Testing

@Suite struct LinearDiscriminantAnalysisTests {
  @Test(arguments: try LinearGoldens.load().cases)
  func matchesScikitLearn(_ golden: LinearGoldens.Case) throws {
    let data = try golden.split()
    let fitted = try LinearDiscriminantAnalysis().fit(data.train, labels: data.trainLabels, classCount: data.classCount)
    let probabilities = fitted.predictProbabilities(data.test)
    #expect(probabilityGap(probabilities, golden.lda.proba, relative: 1e-9) <= 1, "\(golden.name)")
    #expect(logLossGap(probabilities, golden.lda.proba, labels: data.testLabels, relative: 1e-9) <= 1, "\(golden.name)")
    #expect(largestRowSumError(probabilities) < 1e-15)
    #expect(fitted.coefficients.rows == golden.lda.coef.count)
    #expect(largestRelativeGap(fitted.coefficients.values, golden.lda.coef.flatMap { $0 }) < 1e-9, "\(golden.name)")
    #expect(largestRelativeGap(fitted.intercepts, golden.lda.intercept) < 1e-9, "\(golden.name)")
  }

  @Test func binaryKeepsOneDiscriminant() throws {
    let x = Matrix([[0, 1], [1, 0], [2, 2], [3, 1], [4, 3], [5, 4]])
    let fitted = try LinearDiscriminantAnalysis().fit(x, labels: [0, 0, 0, 1, 1, 1], classCount: 2)
    #expect(fitted.coefficients.rows == 1)
    #expect(fitted.intercepts.count == 1)
    #expect(fitted.parameterCount == 3)
    #expect(fitted.priors == [0.5, 0.5])
    let p = fitted.predictProbabilities(x)
    for r in 0..<x.rows { #expect(abs(p[r, 0] + p[r, 1] - 1) < 1e-15) }
    #expect(p[0, 0] > 0.5 && p[5, 1] > 0.5)
  }

  @Test func fitIsDeterministic() throws {
    let data = try LinearGoldens.load().cases[0].split()
    let first = try LinearDiscriminantAnalysis().fit(data.train, labels: data.trainLabels, classCount: 3)
    let second = try LinearDiscriminantAnalysis().fit(data.train, labels: data.trainLabels, classCount: 3)
    #expect(first == second)
  }

  @Test func rejectsNonFiniteFeatures() {
    let x = Matrix([[0, 1], [1, .nan], [2, 2], [3, 1]])
    #expect(throws: ModelError.self) { try LinearDiscriminantAnalysis().fit(x, labels: [0, 0, 1, 1], classCount: 2) }
  }

  @Test func rejectsAsManyRowsAsClasses() {
    #expect(throws: ModelError.self) {
      try LinearDiscriminantAnalysis().fit(Matrix([[0], [1]]), labels: [0, 1], classCount: 2)
    }
  }

  @Test func rejectsDataWithoutWithinClassVariance() {
    // Every feature is constant within each class: there is no covariance to estimate.
    let x = Matrix([[0, 5], [0, 5], [1, 7], [1, 7]])
    #expect(throws: ModelError.self) {
      try LinearDiscriminantAnalysis().fit(x, labels: [0, 0, 1, 1], classCount: 2)
    }
  }

  @Test func equalClassMeansGivePriorProbabilities() throws {
    let x = Matrix([[-1], [1], [-1], [1], [-1], [1], [0], [0]])
    let fitted = try LinearDiscriminantAnalysis().fit(x, labels: [0, 0, 1, 1, 1, 1, 0, 1], classCount: 2)
    #expect(fitted.rank == 0)
    let p = fitted.predictProbabilities(Matrix([[3]]))
    #expect(abs(p[0, 1] - 5.0 / 8.0) < 1e-15)
  }

  @Test func readsSettings() throws {
    var reader = SettingsReader(["tol": "0.001", "solver": "svd"])
    let model = try LinearDiscriminantAnalysis(settings: &reader)
    #expect(model == LinearDiscriminantAnalysis(tol: 0.001))
    #expect(model.descriptor.id == "lda")
    #expect(model.parameters == ["tol": .double(0.001), "solver": .string("svd")])

    var defaults = SettingsReader()
    #expect(try LinearDiscriminantAnalysis(settings: &defaults) == LinearDiscriminantAnalysis())

    var eigen = SettingsReader(["solver": "eigen"])
    #expect(throws: SettingError.self) { try LinearDiscriminantAnalysis(settings: &eigen) }
    var unknown = SettingsReader(["shrinkage": "auto"])
    #expect(throws: SettingError.self) { try LinearDiscriminantAnalysis(settings: &unknown) }
    var negative = SettingsReader(["tol": "-1"])
    #expect(throws: SettingError.self) { try LinearDiscriminantAnalysis(settings: &negative) }
  }
}
