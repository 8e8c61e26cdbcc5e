import BenchbookData
import Testing

@testable import BenchbookEvaluation

/// A query's neighbours' training words, gathered once for every split testing it, must tell each split's
/// membership as the bits themselves do: with one word a row and with several (the tuned flagship's 65 splits take
/// two), for rows in any order.
@Suite struct SplitMembershipTests {
  @Test(arguments: [3, 64, 65, 130])
  func gatheredWordsTellEachSplitsMembership(splitCount: Int) {
    let rowCount = 50
    var generator = SeededGenerator(seed: UInt64(splitCount))
    let splits = (0..<splitCount).map { _ in
      let train = (0..<rowCount).filter { _ in Bool.random(using: &generator) }
      let test = (0..<rowCount).filter { !train.contains($0) }
      return NeighborGraphPass.Split(
        train: RowIndices(train), test: RowIndices(test), full: false, fold: nil, configurationCount: 1)
    }
    let membership = SplitMembership(splits, rowCount: rowCount)
    #expect(membership.wordsPerRow == (splitCount + 63) / 64)
    let rows = (0..<rowCount).shuffled(using: &generator)
    let gathered = UnsafeMutablePointer<UInt64>.allocate(capacity: rows.count * membership.wordsPerRow)
    defer { gathered.deallocate() }
    membership.gatherRows(rows[...], into: gathered)
    for (i, row) in rows.enumerated() {
      for s in 0..<splitCount {
        let expected = splits[s].train.contains(row)
        #expect(membership.trains(s, row) == expected, "split \(s), row \(row)")
        #expect(membership.trainingBit(s, gathered: gathered, at: i) == (expected ? 1 : 0), "split \(s), row \(row)")
      }
    }
  }

  /// The pass stands for a split's own fit only when the split trains on every class; the check stops reading at
  /// the last class found, so a class met only at the end must still count, and one never met must not.
  @Test func splitsTrainingOnEveryClassAreFound() {
    let labels = [0, 0, 1, 0, 0, 0, 2, 1, 0, 0]
    #expect(NeighborGraphPass.holdsEveryClass(RowIndices(all: 10), labels: labels, classCount: 3))
    #expect(NeighborGraphPass.holdsEveryClass(RowIndices([9, 8, 7, 6]), labels: labels, classCount: 3))
    #expect(!NeighborGraphPass.holdsEveryClass(RowIndices([0, 1, 2, 3, 4, 5, 7]), labels: labels, classCount: 3))
    #expect(
      !NeighborGraphPass.holdsEveryClass(RowIndices(RowIndices(all: 10), except: [6]), labels: labels, classCount: 3))
    #expect(!NeighborGraphPass.holdsEveryClass(RowIndices([]), labels: labels, classCount: 3))
    let lastRowOnly = [0, 0, 1, 0, 0, 0, 0, 0, 0, 2]
    #expect(NeighborGraphPass.holdsEveryClass(RowIndices(all: 10), labels: lastRowOnly, classCount: 3))
    #expect(!NeighborGraphPass.holdsEveryClass(RowIndices(all: 9), labels: lastRowOnly, classCount: 3))
  }
}
