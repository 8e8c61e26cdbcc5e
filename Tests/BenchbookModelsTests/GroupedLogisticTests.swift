import BenchbookData
@_spi(Testing) import BenchbookModels
import Foundation
import Testing

/// The leak audit's grouped logistic regression reaches `LogisticRegression`'s optimum: the same objective,
/// solved on the distinct rows' class counts instead of the rows.
@Suite struct GroupedLogisticTests {
  /// `rows` rows of a category of `levels` levels, one-hot and standardised as the audit's scorer sees it, with
  /// labels that depend on the level (and noise), in `classCount` classes.
  static func category(rows: Int, levels: Int, classCount: Int, seed: UInt64) -> (x: Matrix, labels: [Int]) {
    var generator = SeededGenerator(seed: seed)
    var level = (0..<rows).map { _ in generator.uniform(below: levels) }
    level[0] = levels - 1  // every level present, the last one at least once
    let labels = level.map { ($0 * 3 + generator.uniform(below: 3)) % classCount }
    var values = [Double](repeating: 0, count: rows * levels)
    for (row, l) in level.enumerated() { values[row * levels + l] = 1 }
    for c in 0..<levels {
      let column = (0..<rows).map { values[$0 * levels + c] }
      let mean = column.reduce(0, +) / Double(rows)
      let spread = (column.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(rows)).squareRoot()
      for row in 0..<rows { values[row * levels + c] = (values[row * levels + c] - mean) / spread }
    }
    return (Matrix(rows: rows, columns: levels, values: values), labels)
  }

  static func largestGap(_ a: Matrix, _ b: Matrix) -> Double {
    zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
  }

  /// A sigmoid for two classes, a softmax for more; many levels and few.
  @Test(arguments: [(levels: 12, classes: 2), (5, 3), (30, 7)])
  func matchesLogisticRegression(levels: Int, classes: Int) throws {
    let data = Self.category(rows: 400, levels: levels, classCount: classes, seed: UInt64(levels))
    let groups = try #require(GroupedLogistic.Groups(data.x, atMost: 100))
    #expect(groups.rows.rows == levels)
    let fitted = try #require(
      GroupedLogistic(tol: 1e-10).fit(groups, labels: data.labels, classCount: classes) as? FittedLogisticRegression)
    #expect(fitted.converged)
    #expect(fitted.intercepts.count == (classes == 2 ? 1 : classes))
    let reference = try LogisticRegression(tol: 1e-10).fit(data.x, labels: data.labels, classCount: classes)
    #expect(Self.largestGap(fitted.predictProbabilities(data.x), reference.predictProbabilities(data.x)) < 1e-7)
  }

  /// A class absent from the training rows gets probability 0, as `fitPresentClasses` gives it; a lone class, 1.
  @Test func absentClassesGetZero() throws {
    let data = Self.category(rows: 300, levels: 6, classCount: 3, seed: 4)
    let kept = data.labels.indices.filter { data.labels[$0] != 1 }
    let x = data.x.selecting(rows: kept)
    let labels = kept.map { data.labels[$0] }
    let groups = try #require(GroupedLogistic.Groups(x, atMost: 10))
    let fitted = try #require(GroupedLogistic().fit(groups, labels: labels, classCount: 3))
    let probabilities = fitted.predictProbabilities(x)
    #expect((0..<x.rows).allSatisfy { probabilities[$0, 1] == 0 })
    #expect((0..<x.rows).allSatisfy { abs(probabilities[$0, 0] + probabilities[$0, 2] - 1) < 1e-12 })
    let reference = try LogisticRegression(tol: 1e-10).fitPresentClasses(x, labels: labels, classCount: 3)
    #expect(Self.largestGap(probabilities, reference.predictProbabilities(x)) < 1e-6)
    let lone = try #require(GroupedLogistic().fit(groups, labels: labels.map { _ in 2 }, classCount: 3))
    #expect(lone.predictProbabilities(x.selecting(rows: [0])).values == [0, 0, 1])
  }

  /// No rows, no fit (`LogisticRegression` throws there).
  @Test func noRowsNoFit() throws {
    let groups = try #require(GroupedLogistic.Groups(Matrix(rows: 0, columns: 3, values: []), atMost: 5))
    #expect(GroupedLogistic().fit(groups, labels: [], classCount: 2) == nil)
  }

  /// Rows group by value (−0 with +0); too many groups, or a value that is not finite, give no groups.
  @Test func groupsRowsByValue() throws {
    let x = Matrix(rows: 5, columns: 2, values: [1, 0, 2, 3, 1, -0.0, 2, 3, 5, 5])
    let groups = try #require(GroupedLogistic.Groups(x, atMost: 3))
    #expect(groups.groupOfRow == [0, 1, 0, 1, 2])
    #expect(groups.rows.values == [1, 0, 2, 3, 5, 5])
    #expect(GroupedLogistic.Groups(x, atMost: 2) == nil)
    #expect(GroupedLogistic.Groups(Matrix(rows: 1, columns: 1, values: [.nan]), atMost: 3) == nil)
  }

  /// Hundreds of groups, past every growth of the hash table: numbered in order of first appearance, as a
  /// dictionary keyed by the rows' values numbers them.
  @Test func manyGroupsNumberedByFirstAppearance() throws {
    var generator = SeededGenerator(seed: 12)
    let rows = 5_000
    let values = (0..<(rows * 3)).map { _ in Double(generator.uniform(below: 9)) - 4 }
    let x = Matrix(rows: rows, columns: 3, values: values)
    var numbers: [[Double]: Int] = [:]
    var expected: [Int] = []
    for row in 0..<rows {
      let key = Array(values[(row * 3)..<(row * 3 + 3)])
      if numbers[key] == nil { numbers[key] = numbers.count }
      expected.append(numbers[key]!)
    }
    let groups = try #require(GroupedLogistic.Groups(x, atMost: rows))
    #expect(groups.groupOfRow == expected)
    #expect(groups.rows.rows == numbers.count)
    #expect((0..<groups.rows.rows).allSatisfy { numbers[groups.rows.row($0)] == $0 })
    #expect(GroupedLogistic.Groups(x, atMost: numbers.count - 1) == nil)
  }
}
