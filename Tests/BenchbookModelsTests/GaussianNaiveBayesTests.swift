import BenchbookData
import BenchbookModels
import Testing

@Suite struct GaussianNaiveBayesTests {
  @Test(arguments: try LinearGoldens.load().cases)
  func matchesScikitLearn(_ golden: LinearGoldens.Case) throws {
    let data = try golden.split()
    let fitted = try GaussianNaiveBayes().fit(data.train, labels: data.trainLabels, classCount: data.classCount)
    let reference = golden.gaussianNb
    #expect(largestRelativeGap(fitted.theta.values, reference.theta.flatMap { $0 }) < 1e-12, "\(golden.name)")
    let variance = reference.var.flatMap { $0 }
    for (actual, expected) in zip(fitted.variance.values, variance) {
      #expect(abs(actual - expected) <= 1e-10 * expected, "\(golden.name)")
    }
    #expect(largestRelativeGap(fitted.classPriors, reference.classPrior) < 1e-15)
    #expect(abs(fitted.epsilon - reference.epsilon) <= 1e-12 * reference.epsilon)
    let probabilities = fitted.predictProbabilities(data.test)
    #expect(largestRowSumError(probabilities) < 1e-13)  // exp of normalised log-probabilities, as scikit-learn
    #expect(probabilityGap(probabilities, reference.proba, relative: 1e-9) <= 1, "\(golden.name)")
    #expect(logLossGap(probabilities, reference.proba, labels: data.testLabels, relative: 1e-9) <= 1, "\(golden.name)")
  }

  @Test func smoothsAConstantFeatureWithinAClass() throws {
    // Feature 1 is constant in class 0; the largest feature variance (of feature 0) smooths it.
    let x = Matrix([[0, 2], [2, 2], [10, 3], [12, 5]])
    let fitted = try GaussianNaiveBayes().fit(x, labels: [0, 0, 1, 1], classCount: 2)
    let largestVariance = 26.0  // population variance of 0, 2, 10, 12 (mean 6)
    #expect(abs(fitted.epsilon - 1e-9 * largestVariance) < 1e-24)
    #expect(fitted.variance[0, 1] == fitted.epsilon)
    #expect(fitted.parameterCount == 10)
    let p = fitted.predictProbabilities(Matrix([[1, 2], [11, 4]]))
    #expect(p[0, 0] > 0.99 && p[1, 1] > 0.99)
    for r in 0..<2 { #expect(abs(p[r, 0] + p[r, 1] - 1) < 1e-15) }
  }

  @Test func rejectsNonFiniteFeatures() {
    let x = Matrix([[0, 1], [1, .infinity], [2, 2], [3, 1]])
    #expect(throws: ModelError.self) { try GaussianNaiveBayes().fit(x, labels: [0, 0, 1, 1], classCount: 2) }
  }

  @Test func rejectsZeroVarianceWithoutSmoothing() {
    let x = Matrix([[1, 1], [1, 1], [1, 1]])
    #expect(throws: ModelError.self) {
      try GaussianNaiveBayes().fit(x, labels: [0, 1, 1], classCount: 2)
    }
    #expect(throws: ModelError.self) {
      try GaussianNaiveBayes(varSmoothing: 0).fit(Matrix([[0], [1], [2], [2]]), labels: [0, 0, 1, 1], classCount: 2)
    }
  }

  @Test func readsSettings() throws {
    var reader = SettingsReader(["var_smoothing": "1e-6"])
    let model = try GaussianNaiveBayes(settings: &reader)
    #expect(model == GaussianNaiveBayes(varSmoothing: 1e-6))
    #expect(model.descriptor.id == "gaussian_nb")
    #expect(model.parameters == ["var_smoothing": .double(1e-6)])
    var defaults = SettingsReader()
    #expect(try GaussianNaiveBayes(settings: &defaults).varSmoothing == 1e-9)
    var negative = SettingsReader(["var_smoothing": "-1"])
    #expect(throws: SettingError.self) { try GaussianNaiveBayes(settings: &negative) }
    var unknown = SettingsReader(["priors": "none"])
    #expect(throws: SettingError.self) { try GaussianNaiveBayes(settings: &unknown) }
  }
}
