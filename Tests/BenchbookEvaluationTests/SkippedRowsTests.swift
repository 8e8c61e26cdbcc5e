import BenchbookData
import Testing

@testable import BenchbookEvaluation

/// The rows the cross-fold duplicates check must look at, walked from a bit set (`RowBitSetTests` checks the set).
@Suite struct SkippedRowsTests {
  /// Only rows of groups of two or more are walked, in the rows' own order, a run at a time.
  @Test func twinRowsWalkOnlyRowsWithATwin() {
    // Rows 3 and 70 share group 1, rows 64, 65 and 199 share group 4; every other row is alone.
    var ids = (0..<200).map { Int32($0 + 10) }
    ids[3] = 1
    ids[70] = 1
    for row in [64, 65, 199] { ids[row] = 4 }
    let twins = CrossFoldDuplicatesCheck.TwinRows((ids, 210), rowCount: 200)
    var walked: [Int] = []
    twins.forEach(in: RowIndices(all: 200)) { walked.append($0) }
    #expect(walked == [3, 64, 65, 70, 199])
    walked = []
    twins.forEach(in: RowIndices([199, 65, 3, 4, 5])) { walked.append($0) }
    #expect(walked == [199, 65, 3])
    walked = []
    twins.forEach(in: RowIndices(0..<64)) { walked.append($0) }
    #expect(walked == [3])
  }
}
