import Foundation

/// scikit-learn's answers for splitters and measures, made by `Fixtures/make_goldens.py`.
struct Goldens: Decodable {
  struct Split: Decodable {
    struct Fold: Decodable {
      var train: [Int]
      var test: [Int]
    }
    var kind: String
    var n: Int?
    var k: Int
    var labels: [Int]?
    var gap: Int?
    var max_train_size: Int?
    var test_size: Int?
    var folds: [Fold]
  }

  struct Measure: Decodable {
    var `case`: String
    var labels: [Int]
    var probabilities: [[Double]]
    var log_loss: Double
    var accuracy: Double
    var brier: Double
    var roc_auc: Double?
  }

  var sklearn: String
  var splits: [Split]
  var measures: [Measure]

  static let shared: Goldens = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/goldens.json")
    do {
      return try JSONDecoder().decode(Goldens.self, from: Data(contentsOf: url))
    } catch {
      fatalError("cannot read \(url.path): \(error)")
    }
  }()
}
