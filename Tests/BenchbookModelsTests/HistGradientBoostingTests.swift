import BenchbookData
import BenchbookModels
import Foundation
import Testing

/// scikit-learn 1.9.1's `HistGradientBoostingClassifier(random_state=0, ...)` on the cases of
/// `Fixtures/hgb-goldens.json` (written by `Fixtures/make_hgb_goldens.py`): the same number of iterations and
/// probabilities within 1e-6.
struct HGBGoldens: Decodable {
  /// A dataset drawn with NumPy's `RandomState.randint`, which `MersenneTwister` reproduces (see the script).
  struct Recipe: Decodable {
    var seed: Int
    var rows: Int
    var features: Int
    var noise: Int
    var nanFeatures: [Int]
    var nanBelow: Int
    var cuts: [Int]

    func dataset() -> (Matrix, [Int], Int) {
      var rng = MersenneTwister(seed: UInt32(seed))
      let a = (0..<(rows * features)).map { _ in Int(rng.integer(below: 1000)) }
      let e = (0..<rows).map { _ in Int(rng.integer(below: UInt64(noise))) }
      var values = a.map { Double($0) / 10 }
      for f in nanFeatures {
        for r in 0..<rows where a[r * features + f] < nanBelow { values[r * features + f] = .nan }
      }
      let labels = (0..<rows).map { r in
        let s = a[r * features] + a[r * features + 1] - a[r * features + 2] + e[r]
        return cuts.count { s > $0 }
      }
      return (Matrix(rows: rows, columns: features, values: values), labels, cuts.count + 1)
    }
  }

  struct Case: Decodable, CustomTestStringConvertible {
    var name: String
    var data: String?
    var recipe: Recipe?
    var settings: [String: String]
    var predictRows: Int
    var nanFeaturesAtPredict: [Int]
    var nIter: Int
    var probabilities: [[Double]]
    var nanProbabilities: [[Double]]

    var testDescription: String { name }

    func dataset() throws -> (Matrix, [Int], Int) {
      if let data { return try LinearGoldens.dataset(data) }
      return recipe!.dataset()
    }

    func model() throws -> HistGradientBoosting {
      var reader = SettingsReader(settings)
      return try HistGradientBoosting(settings: &reader)
    }
  }

  var sklearn: String
  var cases: [Case]

  static let all: [Case] = {
    do {
      let data = try Data(contentsOf: LinearGoldens.fixtures.appendingPathComponent("hgb-goldens.json"))
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      return try decoder.decode(HGBGoldens.self, from: data).cases
    } catch {
      preconditionFailure("hgb-goldens.json: \(error)")
    }
  }()
}

/// Largest absolute difference between predicted and golden probabilities.
private func largestGap(_ predicted: Matrix, _ golden: [[Double]]) -> Double {
  precondition(predicted.rows == golden.count)
  var gap = 0.0
  for (r, row) in golden.enumerated() {
    for (c, value) in row.enumerated() { gap = max(gap, abs(predicted[r, c] - value)) }
  }
  return gap
}

@Suite struct HistGradientBoostingTests {
  @Test(arguments: HGBGoldens.all)
  func matchesScikitLearn(_ golden: HGBGoldens.Case) throws {
    let (x, labels, classCount) = try golden.dataset()
    let fitted = try golden.model().fit(x, labels: labels, classCount: classCount)
    #expect(fitted.iterationCount == golden.nIter)
    let rows = x.selecting(rows: 0..<golden.predictRows)
    let gap = largestGap(fitted.predictProbabilities(rows), golden.probabilities)
    #expect(gap <= 1e-6, "largest gap \(gap)")
    if !golden.nanFeaturesAtPredict.isEmpty {
      var withNaN = rows
      for f in golden.nanFeaturesAtPredict {
        for r in stride(from: 0, to: rows.rows, by: 3) { withNaN.values[r * rows.columns + f] = .nan }
      }
      let nanGap = largestGap(fitted.predictProbabilities(withNaN), golden.nanProbabilities)
      #expect(nanGap <= 1e-6, "largest gap with NaN \(nanGap)")
    }
  }

  @Test func settingsRoundTrip() throws {
    let model = HistGradientBoosting(
      learningRate: 0.25, maxIter: 40, maxLeafNodes: nil, maxDepth: 4, minSamplesLeaf: 7, l2Regularization: 0.5,
      maxFeatures: 0.75, maxBins: 63, earlyStopping: .on, validationFraction: 0.2, nIterNoChange: 3, tol: 1e-5,
      randomState: 11)
    var reader = SettingsReader(model.parameters.mapValues(SettingDescriptor.specText))
    #expect(try HistGradientBoosting(settings: &reader) == model)
    var defaults = SettingsReader()
    #expect(try HistGradientBoosting(settings: &defaults) == HistGradientBoosting())
    for share in ["0", "1.5"] {
      var subsampled = SettingsReader(["max_features": share])
      #expect(throws: SettingError.self) { try HistGradientBoosting(settings: &subsampled) }
    }
    var tooManyBins = SettingsReader(["max_bins": "256"])
    #expect(throws: SettingError.self) { try HistGradientBoosting(settings: &tooManyBins) }
  }

  /// A feature missing in training sends NaN where the split learned; predictions stay finite and sum to 1.
  @Test func missingValuesAreRouted() throws {
    var rows: [[Double]] = []
    var labels: [Int] = []
    for i in 0..<200 {
      let missing = i % 4 == 0
      rows.append([missing ? Double.nan : Double(i % 50), Double(i % 7)])
      labels.append(missing || i % 50 >= 25 ? 1 : 0)
    }
    let x = Matrix(rows)
    let fitted = try HistGradientBoosting(maxIter: 20).fit(x, labels: labels, classCount: 2)
    let p = fitted.predictProbabilities(Matrix([[.nan, 3], [10, 3], [40, 3]]))
    #expect(p[0, 1] > 0.9, "rows with a missing value were all class 1")
    #expect(p[1, 0] > 0.9)
    for r in 0..<3 { #expect(abs(p[r, 0] + p[r, 1] - 1) < 1e-12) }
    guard case .treeEnsemble(let form) = try fitted.exportForm() else {
      Issue.record("not a tree ensemble")
      return
    }
    #expect(form.scoreCount == 1)
    #expect(form.transform == TreeEnsembleForm.Transform.logistic)
    #expect(form.trees.count == 20)
  }

  @Test func deterministic() throws {
    let (x, labels, classCount) = try LinearGoldens.dataset("iris.csv")
    let a = try HistGradientBoosting(maxIter: 10).fit(x, labels: labels, classCount: classCount)
    let b = try HistGradientBoosting(maxIter: 10).fit(x, labels: labels, classCount: classCount)
    #expect(a.predictProbabilities(x) == b.predictProbabilities(x))
  }
}
