import Foundation

/// results.json read as plain JSON, so these tests check the key contract itself.
struct ResultsJSON {
  let object: [String: Any]

  init(path: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
  }

  var models: [[String: Any]] { object["models"] as! [[String: Any]] }

  func model(_ label: String) -> [String: Any]? { models.first { $0["label"] as? String == label } }

  func foldLogLoss(_ label: String) -> [Double] {
    (model(label)?["folds"] as? [[String: Any]] ?? []).map { $0["log_loss"] as! Double }
  }

  /// Timing fields besides `*_seconds`: they change from run to run by nature.
  static let timingKeys: Set<String> = ["jobs", "latency_us", "throughput_rows_per_s"]

  /// The file with every timing field removed: what must not change between runs.
  static func withoutTimings(_ text: String) throws -> String {
    var object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    object = strip(object)
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    return String(decoding: data, as: UTF8.self)
  }

  private static func strip(_ value: Any) -> Any {
    if var dictionary = value as? [String: Any] {
      for key in dictionary.keys where key.hasSuffix("_seconds") || Self.timingKeys.contains(key) {
        dictionary[key] = nil
      }
      return dictionary.mapValues(strip)
    }
    if let array = value as? [Any] { return array.map(strip) }
    return value
  }
}

/// scikit-learn's per-fold log-loss, from `Fixtures/make_goldens.py`.
struct SklearnGoldens: Decodable {
  struct Case: Decodable {
    var `case`: String
    var rows: Int
    /// Per Benchbook model id, the golden its folds must match, or why none can.
    var parity: [String: Parity]
    var models: [String: [Double]]
  }

  /// How one model's folds are held to scikit-learn's on a case.
  struct Parity: Decodable {
    /// The key in `models` its folds must match, fold by fold; `nil` when nothing can stand for it (`why`).
    var golden: String?
    var relativeTolerance: Double?
    var why: String?
    /// Goldens its mean over folds must match (references that order ties their own way).
    var means: [Mean]?

    struct Mean: Decodable {
      var golden: String
      var relativeTolerance: Double

      enum CodingKeys: String, CodingKey {
        case golden
        case relativeTolerance = "relative_tolerance"
      }
    }

    enum CodingKeys: String, CodingKey {
      case golden, why, means
      case relativeTolerance = "relative_tolerance"
    }
  }
  var sklearn: String
  var cases: [Case]

  static let shared: SklearnGoldens = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/sklearn-goldens.json")
    return try! JSONDecoder().decode(SklearnGoldens.self, from: Data(contentsOf: url))
  }()

  static func named(_ name: String) -> Case { shared.cases.first { $0.case == name }! }
}
