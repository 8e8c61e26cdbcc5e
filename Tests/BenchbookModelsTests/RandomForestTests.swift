import BenchbookData
import Foundation
import Testing

@_spi(Testing) @testable import BenchbookModels

/// Forests tree for tree against scikit-learn's `RandomForestClassifier(random_state:)`.
///
/// Goldens: `cd Tests/BenchbookModelsTests/Fixtures && python3 make_forest_goldens.py | gzip -n >
/// forest-goldens.json.gz` (scikit-learn 1.9.1). Each case checks the trees' seeds, the first two trees node for
/// node (bootstrap counts as weights, `max_features` draws), then the forest's probabilities within 1e-12.
@Suite struct RandomForestTests {
  /// A scikit-learn setting as the goldens write it.
  enum Setting: Decodable, Sendable {
    case number(Double)
    case word(String)
    case flag(Bool)
    case none

    init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .none
      } else if let flag = try? container.decode(Bool.self) {
        self = .flag(flag)
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else {
        self = .word(try container.decode(String.self))
      }
    }

    /// As a spec writes it: whole numbers are counts (the goldens' shares are all below 1).
    var specText: String {
      switch self {
      case .none: "none"
      case .flag(let flag): String(flag)
      case .word(let word): word
      case .number(let number): number == number.rounded() ? String(Int(number)) : "\(number)"
      }
    }
  }

  struct Golden: Decodable, CustomTestStringConvertible, Sendable {
    var name: String
    var dataset: String
    var params: [String: Setting]
    var seed: Int
    var tree_seeds: [Int]
    var first_trees: [DecisionTreeSeedTests.Golden.Nodes]
    var proba_step: Int
    var proba: [[Double]]

    var testDescription: String { name }

    /// The case's settings as a spec would write them.
    var model: RandomForest {
      get throws {
        var settings: [String: String] = ["random_state": String(seed)]
        for (key, value) in params { settings[key] = value.specText }
        var reader = SettingsReader(settings)
        return try RandomForest(settings: &reader)
      }
    }
  }

  struct Goldens: Decodable {
    var sklearn: String
    var cases: [Golden]
  }

  static let goldens: [Golden] = {
    let path = DecisionTreeSeedTests.fixtures.appendingPathComponent("forest-goldens.json.gz").path
    let bytes = try! DataFile.contents(atPath: path)
    return try! JSONDecoder().decode(Goldens.self, from: Data(bytes)).cases
  }()

  @Test(arguments: goldens)
  func growsScikitLearnsForest(_ golden: Golden) throws {
    let data = try DecisionTreeSeedTests.dataset(golden.dataset)
    let model = try golden.model
    #expect(model.treeSeeds() == golden.tree_seeds)
    let forest = try model.fit(data.x, labels: data.labels, classCount: data.classCount)
    for (t, nodes) in golden.first_trees.enumerated() {
      let difference = DecisionTreeSeedTests.firstDifference(forest.trees[t], nodes)
      #expect(difference == nil, "\(golden.name) tree \(t): \(difference ?? "")")
    }
    let probabilities = forest.predictProbabilities(data.x)
    var largest = 0.0
    for (i, row) in golden.proba.enumerated() {
      for (c, expected) in row.enumerated() {
        let actual = probabilities[i * golden.proba_step, c]
        largest = max(largest, abs(actual - expected))
      }
    }
    #expect(largest <= 1e-12, "\(golden.name): largest difference \(largest)")
  }

  /// Trees grow on any number of threads; the forest must not depend on which finished first.
  @Test func sameForestOnOneThread() throws {
    let data = try DecisionTreeSeedTests.dataset("wine.csv")
    let model = RandomForest(nEstimators: 12, randomState: 4)
    let parallel = try model.fit(data.x, labels: data.labels, classCount: data.classCount)
    let serial = try RandomForest.$workerLimit.withValue(1) {
      try model.fit(data.x, labels: data.labels, classCount: data.classCount)
    }
    #expect(parallel.trees.map(\.nodes) == serial.trees.map(\.nodes))
    #expect(parallel.predictProbabilities(data.x).values == serial.predictProbabilities(data.x).values)
  }

  /// The bootstrap draw is NumPy's `RandomState(seed).randint(0, n, n)`: these counts are its draws for seed 0,
  /// counted (`np.bincount(np.random.RandomState(0).randint(0, 10, 10), minlength=10)`).
  @Test func bootstrapIsNumpysDraw() {
    #expect(RandomForest.bootstrapCounts(seed: 0, rows: 10, samples: 10) == [1, 0, 1, 3, 1, 2, 0, 1, 0, 1])
  }

  @Test func refusesMoreFeaturesThanTheDataHas() throws {
    let data = try DecisionTreeSeedTests.dataset("iris.csv")
    #expect(throws: ModelError.self) {
      try RandomForest(nEstimators: 2, maxFeatures: .count(5)).fit(data.x, labels: data.labels, classCount: 3)
    }
  }
}
