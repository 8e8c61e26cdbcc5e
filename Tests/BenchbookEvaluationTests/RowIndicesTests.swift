import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation
import Testing

/// A fold's rows read the same whichever way they are stored: subscript, iteration, equality and JSON.
@Suite struct RowIndicesTests {
  /// Every way of reading `indices` agrees with `expected`.
  func expectReads(_ indices: RowIndices, as expected: [Int]) throws {
    #expect(indices.count == expected.count)
    #expect(Array(indices) == expected)
    #expect(indices.indices.map { indices[$0] } == expected)
    #expect(indices == RowIndices(expected))
    #expect(indices.hashValue == RowIndices(expected).hashValue)
    // A fit's record of its rows reads them by runs; any sequence of the same rows gives the same fingerprint.
    #expect(RowSetFingerprint(indices) == RowSetFingerprint(expected))
    #expect(RowSetFingerprint(indices) == RowSetFingerprint(expected.lazy.map { $0 }))
    // Runs: maximal, in order, and gathering by them reads the same rows.
    var runs: [Range<Int>] = []
    indices.forEachRun { runs.append($0) }
    #expect(runs.flatMap { Array($0) } == expected)
    #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound != $1.lowerBound })
    let matrix = Matrix(rows: 64, columns: 2, values: (0..<128).map(Double.init))
    #expect(matrix.selecting(rows: indices).values == matrix.selecting(rows: expected).values)
    let decoded = try JSONDecoder().decode(RowIndices.self, from: JSONEncoder().encode(indices))
    #expect(Array(decoded) == expected)
    #expect(
      String(decoding: try JSONEncoder().encode(indices), as: UTF8.self)
        == "[\(expected.map(String.init).joined(separator: ","))]")
  }

  @Test func ascendingSortsEveryStorage() throws {
    let shuffled = [63, 5, 6, 7, 0, 40, 41, 33, 2, 1]
    for indices in [
      RowIndices(shuffled), RowIndices(list: shuffled.map(Int32.init)[...]), RowIndices(0..<64),
      RowIndices(RowIndices(shuffled), except: [0, 3]), RowIndices([Int]()),
    ] {
      try expectReads(indices.ascending(rowCount: 64), as: Array(indices).sorted())
    }
  }

  @Test func complementOfAllRowsSkipsTheExcludedOnes() throws {
    try expectReads(RowIndices(RowIndices(all: 10), except: [0, 3, 4, 9]), as: [1, 2, 5, 6, 7, 8])
    try expectReads(RowIndices(RowIndices(all: 5), except: []), as: [0, 1, 2, 3, 4])
    try expectReads(RowIndices(RowIndices(all: 3), except: [0, 1, 2]), as: [])
  }

  @Test func complementWithinAComplementKeepsTheOuterOrder() throws {
    let outer = RowIndices(RowIndices(all: 12), except: [2, 3, 7])  // 0 1 4 5 6 8 9 10 11
    try expectReads(RowIndices(outer, except: [0, 4, 8]), as: [1, 4, 5, 8, 9, 10])
  }

  @Test func slicesOfASharedListReadOnlyTheirRows() throws {
    let order: [Int32] = [5, 1, 4, 0, 3, 2]
    try expectReads(RowIndices(list: order[1..<4]), as: [1, 4, 0])
    try expectReads(RowIndices(RowIndices(list: order[2...]), except: [1]), as: [4, 3, 2])
  }

  @Test func aKFoldPlanListsOnlyItsTestRows() throws {
    let folds = FoldPlan.foldsFromAssignment([0, 1, 0, 2, 1, 0, 2], k: 3)
    try expectReads(folds[0].train, as: [1, 3, 4, 6])
    try expectReads(folds[0].test, as: [0, 2, 5])
    // The training rows hold only the test rows' positions, the very array the test rows are listed in.
    #expect(folds.map(\.train.storedIndexCount) == [3, 2, 2])
    #expect(folds.map(\.test.storedIndexCount) == [3, 2, 2])
  }
}
