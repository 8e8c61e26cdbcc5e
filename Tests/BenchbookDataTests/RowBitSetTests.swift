import Testing

@testable import BenchbookData

/// The bit set that fold passes walk a word at a time: its walks must give exactly the rows a plain set holds.
@Suite struct RowBitSetTests {
  /// The longest run of rows not in `set`, found by checking every run of every length.
  func longestByHand(_ set: Set<Int>, count: Int) -> Range<Int> {
    var longest = 0..<0
    var start = 0
    for row in 0...count where row == count || set.contains(row) {
      if row - start > longest.count { longest = start..<row }
      start = row + 1
    }
    return longest
  }

  /// Sets given as runs of rows, across word boundaries and at both ends.
  @Test(arguments: [
    (count: 0, runs: [Range<Int>]()), (1, []), (1, [0..<1]), (64, [0..<64]), (130, [0..<3, 127..<128]),
    (200, [63..<66]), (300, [100..<300]), (300, [0..<150]), (257, [5..<6, 128..<129, 200..<201, 256..<257]),
  ])
  func longestClearRunIsTheLongestGap(count: Int, runs: [Range<Int>]) {
    let set = runs.flatMap { $0 }
    #expect(RowBitSet(set, count: count).longestClearRun() == longestByHand(Set(set), count: count))
  }

  /// Random sets, sparse and dense: the longest gap, every row in order, the rows within any range, membership.
  @Test func walksAgreeWithAPlainSet() {
    var generator = SeededGenerator(seed: 9)
    for trial in 0..<200 {
      let count = generator.uniform(below: 400)
      let density = [2, 5, 50][trial % 3]
      let rows = (0..<count).filter { _ in generator.uniform(below: density) == 0 }
      let bits = RowBitSet(rows.shuffled(using: &generator), count: count)
      #expect(bits.longestClearRun() == longestByHand(Set(rows), count: count), "trial \(trial)")
      var walked: [Int] = []
      bits.forEach { walked.append($0) }
      #expect(walked == rows, "trial \(trial)")
      let lower = generator.uniform(below: count + 1)
      let upper = lower + generator.uniform(below: count - lower + 1)
      walked = []
      bits.forEach(in: lower..<upper) { walked.append($0) }
      #expect(walked == rows.filter { (lower..<upper).contains($0) }, "trial \(trial), rows \(lower)..<\(upper)")
      let members = Set(rows)
      #expect((0..<count).allSatisfy { bits.contains($0) == members.contains($0) }, "trial \(trial)")
      #expect(bits.withContains { contains in (0..<count).filter(contains) } == rows, "trial \(trial)")
    }
  }

  /// A set over every row has no gap; an empty one is one gap.
  @Test func fullAndEmptySets() {
    #expect(RowBitSet(0..<130, count: 130).longestClearRun().isEmpty)
    #expect(RowBitSet(count: 130).longestClearRun() == 0..<130)
  }
}
