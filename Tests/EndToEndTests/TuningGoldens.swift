import Foundation

/// scikit-learn's nested cross-validation, fold by fold, from `Fixtures/make_tuning_goldens.py`.
struct TuningGoldens: Decodable {
  /// A setting's value as the goldens hold it: a number, a word, or `None`.
  enum Value: Decodable, Equatable, CustomStringConvertible {
    case number(Double)
    case string(String)
    case null

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else {
        self = .string(try container.decode(String.self))
      }
    }

    var description: String {
      switch self {
      case .number(let value): value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
      case .string(let value): value
      case .null: "None"
      }
    }

    /// Whether a value read from results.json by `JSONSerialization` is this one; numbers to
    /// relative 1e-12, since a log range may land a last bit away from numpy's `geomspace`.
    func matches(_ actual: Any?) -> Bool {
      switch self {
      case .null: return actual == nil || actual is NSNull
      case .string(let expected): return actual as? String == expected
      case .number(let expected):
        guard let actual = actual as? Double else { return false }
        return abs(actual - expected) <= 1e-12 * abs(expected)
      }
    }
  }

  /// One outer fold.
  struct Fold: Decodable {
    var fold: Int
    /// Mean inner log-loss of each configuration on this fold's training rows.
    var innerMeans: [Double]
    /// First configuration with the smallest inner mean.
    var chosen: Int
    /// What `GridSearchCV` chose on the same rows.
    var gridsearchChosen: Int
    /// The nested score: `flat[chosen]`.
    var outerLogLoss: Double
    /// Every configuration fitted on the outer training rows, scored on the test rows.
    var flat: [Double]

    enum CodingKeys: String, CodingKey {
      case fold, chosen, flat
      case innerMeans = "inner_means"
      case gridsearchChosen = "gridsearch_chosen"
      case outerLogLoss = "outer_log_loss"
    }
  }

  struct Model: Decodable {
    var grid: [String: [Value]]
    /// `ParameterGrid` order: keys sorted, the last key varying fastest.
    var configs: [[String: Value]]
    var folds: [Fold]
    var nestedMean: Double
    /// The inner protocol run on all rows.
    var finalIndex: Int
    var finalParams: [String: Value]

    enum CodingKeys: String, CodingKey {
      case grid, configs, folds
      case nestedMean = "nested_mean"
      case finalIndex = "final_index"
      case finalParams = "final_params"
    }
  }

  // Explicit keys throughout: a snake-case key strategy would also rewrite the
  // settings' names inside `configs` (n_neighbors → nNeighbors).
  struct Case: Decodable {
    var `case`: String
    var rows: Int
    var models: [String: Model]
  }

  var sklearn: String
  var cases: [Case]

  static let shared: TuningGoldens = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/sklearn-tuning-goldens.json")
    return try! JSONDecoder().decode(TuningGoldens.self, from: Data(contentsOf: url))
  }()

  static func named(_ name: String) -> Case { shared.cases.first { $0.case == name }! }
}
