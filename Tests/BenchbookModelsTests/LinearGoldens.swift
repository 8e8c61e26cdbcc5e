// Golden values from scikit-learn 1.9.1 for the linear models and Gaussian naive Bayes.
// Produced in Tests/BenchbookModelsTests/Fixtures by:
//   python3 make_linear_goldens.py
// (writes breast_cancer.csv and linear-goldens.json; iris.csv is a copy of the shared iris data).
import BenchbookData
import BenchbookModels
import Foundation
import Testing

/// The decoded `linear-goldens.json` plus the data each case was computed on.
struct LinearGoldens: Decodable {
  struct LogisticReference: Decodable {
    var settings: [String: Double]
    var referenceSolver: String
    var referenceGradient: Double
    var coef: [[Double]]
    var intercept: [Double]
    var proba: [[Double]]
    var objective: Double
    var defaultObjective: Double
    var defaultGradient: Double
    var defaultIterations: Int
    var defaultProbaMaxAbsDiff: Double

    /// The Benchbook configuration matching these scikit-learn settings.
    var model: LogisticRegression { LogisticRegression(C: settings["C"] ?? 1) }
  }

  struct DiscriminantReference: Decodable {
    var coef: [[Double]]
    var intercept: [Double]
    var proba: [[Double]]
  }

  struct NaiveBayesReference: Decodable {
    var theta: [[Double]]
    var `var`: [[Double]]
    var classPrior: [Double]
    var epsilon: Double
    var proba: [[Double]]
  }

  struct Case: Decodable, CustomTestStringConvertible {
    var name: String
    var dataset: String
    var standardize: Bool
    var train: [Int]
    var test: [Int]
    var lda: DiscriminantReference
    var gaussianNb: NaiveBayesReference
    var logisticRegression: [LogisticReference]

    var testDescription: String { name }

    /// Train and test features (standardised on the training rows if the case says so) and labels.
    func split() throws -> (train: Matrix, trainLabels: [Int], test: Matrix, testLabels: [Int], classCount: Int) {
      let (x, labels, classCount) = try LinearGoldens.dataset(dataset)
      var train = x.selecting(rows: self.train)
      var test = x.selecting(rows: self.test)
      if standardize {
        let scaler = StandardScaler().fit(train)
        train = scaler.transform(train)
        test = scaler.transform(test)
      }
      return (train, self.train.map { labels[$0] }, test, self.test.map { labels[$0] }, classCount)
    }
  }

  var sklearn: String
  var cases: [Case]

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures")

  static func load() throws -> LinearGoldens {
    let data = try Data(contentsOf: fixtures.appendingPathComponent("linear-goldens.json"))
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(LinearGoldens.self, from: data)
  }

  /// Reads a fixture CSV whose last column is the class; classes are numbered in sorted order, as scikit-learn does.
  /// `iris.csv+deficient` is iris with a constant column and the sum of columns 0 and 2 appended.
  static func dataset(_ name: String) throws -> (Matrix, [Int], Int) {
    let deficient = name.hasSuffix("+deficient")
    let file = deficient ? String(name.dropLast("+deficient".count)) : name
    let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
    var rows: [[Double]] = []
    var names: [String] = []
    for line in text.split(whereSeparator: \.isNewline).dropFirst() {
      let fields = line.split(separator: ",").map(String.init)
      var row = fields.dropLast().map { Double($0)! }
      if deficient { row += [1, row[0] + row[2]] }
      rows.append(row)
      names.append(fields.last!)
    }
    let classes = Array(Set(names)).sorted()
    let labels = names.map { classes.firstIndex(of: $0)! }
    return (Matrix(rows), labels, classes.count)
  }
}

/// Rounding allowance for probabilities: scikit-learn computes P(class 0) = 1 − P(class 1), which
/// is only good to a few ε in absolute terms, so a relative comparison needs this absolute floor.
let probabilityFloor = 4 * Double.ulpOfOne

/// Largest gap between predicted and golden probabilities, as a multiple of `relative`·golden + floor
/// (≤ 1 means they agree to `relative`).
func probabilityGap(_ predicted: Matrix, _ golden: [[Double]], relative: Double) -> Double {
  precondition(predicted.rows == golden.count)
  var gap = 0.0
  for r in 0..<predicted.rows {
    for c in 0..<predicted.columns {
      let expected = golden[r][c]
      gap = max(gap, abs(predicted[r, c] - expected) / (relative * expected + probabilityFloor))
    }
  }
  return gap
}

/// Largest gap between per-row log-losses (probability clipped to [ε, 1 − ε] as in scoring), as a
/// multiple of `relative`·golden + floor.
func logLossGap(_ predicted: Matrix, _ golden: [[Double]], labels: [Int], relative: Double) -> Double {
  func loss(_ p: Double) -> Double { -log(min(max(p, Double.ulpOfOne), 1 - Double.ulpOfOne)) }
  var gap = 0.0
  for (r, label) in labels.enumerated() {
    let expected = loss(golden[r][label])
    gap = max(gap, abs(loss(predicted[r, label]) - expected) / (relative * expected + probabilityFloor))
  }
  return gap
}

/// Largest entry-wise gap relative to the largest magnitude in the golden matrix.
func largestRelativeGap(_ actual: [Double], _ expected: [Double]) -> Double {
  precondition(actual.count == expected.count)
  let scale = max(expected.map(abs).max() ?? 0, Double.leastNormalMagnitude)
  return zip(actual, expected).map { abs($0 - $1) }.max().map { $0 / scale } ?? 0
}

/// Largest distance of a row's probability sum from 1.
func largestRowSumError(_ probabilities: Matrix) -> Double {
  var worst = 0.0
  for r in 0..<probabilities.rows {
    worst = max(worst, abs(probabilities.row(r).reduce(0, +) - 1))
  }
  return worst
}
