import BenchbookData
import BenchbookModels
import Foundation
import Testing

/// The small datasets the fitted-model checks run on, read from the model tests' fixtures.
public enum ConformanceDataset: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// Iris: three classes, unstandardised.
  case iris
  /// Versicolor against virginica (overlapping classes), standardised.
  case irisTwoClasses = "iris-versicolor-virginica"
  /// Breast cancer: two classes, 30 standardised features.
  case breastCancer = "breast-cancer"

  public var testDescription: String { rawValue }

  /// The model tests' fixtures (`Tests/BenchbookModelsTests/Fixtures`).
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("BenchbookModelsTests/Fixtures")

  public func load() throws -> (x: Matrix, labels: [Int], classCount: Int) {
    switch self {
    case .iris:
      return try Self.read("iris.csv")
    case .irisTwoClasses:
      let (x, labels, _) = try Self.read("iris.csv")
      let rows = labels.indices.filter { labels[$0] != 0 }
      let subset = x.selecting(rows: rows)
      return (StandardScaler().fit(subset).transform(subset), rows.map { labels[$0] - 1 }, 2)
    case .breastCancer:
      let (x, labels, classCount) = try Self.read("breast_cancer.csv")
      return (StandardScaler().fit(x).transform(x), labels, classCount)
    }
  }

  /// A fixture whose last column is the class and every other a number; classes numbered in sorted order.
  static func read(_ file: String) throws -> (x: Matrix, labels: [Int], classCount: Int) {
    let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
    var rows: [[Double]] = []
    var names: [String] = []
    for line in text.split(whereSeparator: \.isNewline).dropFirst() {
      let fields = line.split(separator: ",").map(String.init)
      rows.append(try fields.dropLast().map { try #require(Double($0), "\(file): '\($0)' is not a number") })
      names.append(fields.last!)
    }
    let classes = Array(Set(names)).sorted()
    return (Matrix(rows), names.map { classes.firstIndex(of: $0)! }, classes.count)
  }
}
