import BenchbookData
import Foundation

/// Reads the kNN and decision-tree fixtures (`Fixtures/knn-*`, `Fixtures/tree-*`),
/// written by `knn-goldens.py` and `tree-goldens.py` beside them.
struct FixtureTable {
  let header: [String]
  let rows: [[String]]

  init(_ name: String, filePath: String = #filePath) throws {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures").appendingPathComponent(name)
    let text = try String(contentsOf: url, encoding: .utf8)
    var lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
    header = lines.removeFirst()
    rows = lines
  }

  func index(of column: String) -> Int {
    guard let index = header.firstIndex(of: column) else { fatalError("no column \(column)") }
    return index
  }

  /// One column parsed as numbers.
  func numbers(_ column: String) -> [Double] {
    let c = index(of: column)
    return rows.map { Double($0[c])! }
  }

  /// The named columns as a matrix.
  func matrix(_ columns: [String], rows selected: [Int]? = nil) -> Matrix {
    let indices = columns.map(index(of:))
    let chosen = selected ?? Array(rows.indices)
    return Matrix(chosen.map { r in indices.map { Double(rows[r][$0])! } })
  }

  /// Columns whose names start with `prefix`, in file order.
  func columns(prefixed prefix: String) -> [String] {
    header.filter { $0.hasPrefix(prefix) }
  }
}

/// A labelled dataset fixture: columns `x0…`, `label`, `split` (0 train, 1 test).
struct SplitFixture {
  let train: Matrix
  let trainLabels: [Int]
  let test: Matrix
  let testLabels: [Int]
  let classCount: Int

  init(_ name: String) throws {
    let table = try FixtureTable(name)
    let features = table.columns(prefixed: "x")
    let labels = table.numbers("label").map { Int($0) }
    let split = table.numbers("split")
    let trainRows = split.indices.filter { split[$0] == 0 }
    let testRows = split.indices.filter { split[$0] == 1 }
    train = table.matrix(features, rows: trainRows)
    trainLabels = trainRows.map { labels[$0] }
    test = table.matrix(features, rows: testRows)
    testLabels = testRows.map { labels[$0] }
    classCount = (labels.max() ?? 0) + 1
  }
}

/// SplitMix64: a tiny seeded generator so property tests see the same data every run.
struct TestGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random small-integer points: many exact duplicates and distance ties.
func integerPoints(rows: Int, columns: Int, values: ClosedRange<Int>, seed: UInt64) -> Matrix {
  var generator = TestGenerator(seed: seed)
  return Matrix(
    rows: rows, columns: columns,
    values: (0..<(rows * columns)).map { _ in Double(Int.random(in: values, using: &generator)) })
}
