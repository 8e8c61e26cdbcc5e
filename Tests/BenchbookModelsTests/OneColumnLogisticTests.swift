import BenchbookData
@_spi(Testing) import BenchbookModels
import Foundation
import Testing

/// The leak audit's one-column logistic regression reaches `LogisticRegression`'s optimum: the same objective,
/// solved on distinct values' class counts instead of rows.
@Suite struct OneColumnLogisticTests {
  /// Wine's column `column`, standardised as the audit's single-feature scorer sees it, and its labels.
  static func wineColumn(_ column: Int) throws -> (values: [Double], labels: [Int], classCount: Int) {
    let data = try DecisionTreeSeedTests.dataset("wine.csv")
    let raw = data.x.column(column)
    let mean = raw.reduce(0, +) / Double(raw.count)
    let spread = (raw.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(raw.count)).squareRoot()
    return (raw.map { ($0 - mean) / spread }, data.labels, data.classCount)
  }

  static func largestGap(_ a: Matrix, _ b: Matrix) -> Double {
    zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
  }

  /// Three classes (softmax), on columns with many distinct values and with few.
  @Test(arguments: [0, 6, 12])
  func softmaxMatchesLogisticRegression(column: Int) throws {
    let data = try Self.wineColumn(column)
    let reference = try LogisticRegression(tol: 1e-10).fit(
      Matrix(rows: data.values.count, columns: 1, values: data.values), labels: data.labels,
      classCount: data.classCount)
    let fitted = try #require(OneColumnLogistic().fit(values: data.values, labels: data.labels, classCount: 3))
    #expect(fitted.converged)
    let x = Matrix(rows: data.values.count, columns: 1, values: data.values)
    #expect(Self.largestGap(fitted.probabilities(data.values), reference.predictProbabilities(x)) < 1e-7)
  }

  /// Two classes (a sigmoid of one output, as scikit-learn's binary case), with a column rounded to a few values.
  @Test func sigmoidMatchesLogisticRegressionOnFewValues() throws {
    let data = try Self.wineColumn(9)
    let values = data.values.map { ($0 * 2).rounded() / 2 }
    #expect(Set(values).count < 15)
    let labels = data.labels.map { $0 == 1 ? 1 : 0 }
    let x = Matrix(rows: values.count, columns: 1, values: values)
    let reference = try LogisticRegression(tol: 1e-10).fit(x, labels: labels, classCount: 2)
    let fitted = try #require(OneColumnLogistic().fit(values: values, labels: labels, classCount: 2))
    #expect(fitted.intercepts.count == 1)
    #expect(Self.largestGap(fitted.probabilities(values), reference.predictProbabilities(x)) < 1e-7)
  }

  /// Nearly separable classes: the penalty keeps the optimum finite and Newton still reaches it.
  @Test func nearlySeparableStillConverges() throws {
    let values = (0..<60).map { Double($0) / 10 - 3 }
    let labels = values.map { $0 > 0.05 ? 1 : 0 }
    let fitted = try #require(OneColumnLogistic().fit(values: values, labels: labels, classCount: 2))
    let x = Matrix(rows: values.count, columns: 1, values: values)
    let reference = try LogisticRegression(tol: 1e-10).fit(x, labels: labels, classCount: 2)
    #expect(fitted.converged)
    #expect(Self.largestGap(fitted.probabilities(values), reference.predictProbabilities(x)) < 1e-6)
  }

  /// A class absent from the training rows gets probability 0, as `fitPresentClasses` gives it; a lone class, 1.
  @Test func absentClassesGetZero() throws {
    let data = try Self.wineColumn(0)
    let kept = data.labels.indices.filter { data.labels[$0] != 1 }
    let values = kept.map { data.values[$0] }
    let labels = kept.map { data.labels[$0] }
    let fitted = try #require(OneColumnLogistic().fit(values: values, labels: labels, classCount: 3))
    let probabilities = fitted.probabilities(values)
    #expect((0..<values.count).allSatisfy { probabilities[$0, 1] == 0 })
    #expect((0..<values.count).allSatisfy { abs(probabilities[$0, 0] + probabilities[$0, 2] - 1) < 1e-12 })
    let lone = try #require(OneColumnLogistic().fit(values: [1, 2, 3], labels: [2, 2, 2], classCount: 3))
    #expect(lone.probabilities([0, 5]).values == [0, 0, 1, 0, 0, 1])
  }

  @Test func refusesMissingValues() {
    #expect(OneColumnLogistic().fit(values: [1, .nan], labels: [0, 1], classCount: 2) == nil)
  }
}
