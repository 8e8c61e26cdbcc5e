import BenchbookData
import Testing

@testable import BenchbookEvaluation

/// The bit-set walks that let a fold's pass skip rows: the run of rows a shared neighbour search may leave out,
/// and the rows the duplicate check must look at.
@Suite struct SkippedRowsTests {
  /// The bit set of `count` rows with `set` marked.
  func bits(_ set: [Int], count: Int) -> [UInt64] {
    var bits = [UInt64](repeating: 0, count: (count + 63) / 64)
    for row in set { bits[row >> 6] |= 1 << UInt64(row & 63) }
    return bits
  }

  /// The longest run of clear bits, found by checking every run of every length.
  func longestByHand(_ set: Set<Int>, count: Int) -> Range<Int> {
    var longest = 0..<0
    var start = 0
    for row in 0...count where row == count || set.contains(row) {
      if row - start > longest.count { longest = start..<row }
      start = row + 1
    }
    return longest
  }

  /// Sets given as runs of rows.
  @Test(arguments: [
    (count: 0, runs: [Range<Int>]()), (1, []), (1, [0..<1]), (64, [0..<64]), (130, [0..<3, 127..<128]),
    (200, [63..<66]), (300, [100..<300]), (300, [0..<150]), (257, [5..<6, 128..<129, 200..<201, 256..<257]),
  ])
  func longestClearRunIsTheLongestGap(count: Int, runs: [Range<Int>]) {
    let set = runs.flatMap { $0 }
    let found = FoldEvaluator.longestClearRun(bits(set, count: count), count: count)
    #expect(found == longestByHand(Set(set), count: count))
  }

  @Test func longestClearRunOfRandomSets() {
    var generator = SeededGenerator(seed: 9)
    for trial in 0..<200 {
      let count = generator.uniform(below: 400)
      let density = [2, 5, 50][trial % 3]
      let set = (0..<count).filter { _ in generator.uniform(below: density) == 0 }
      #expect(
        FoldEvaluator.longestClearRun(bits(set, count: count), count: count) == longestByHand(Set(set), count: count),
        "trial \(trial)")
    }
  }

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
