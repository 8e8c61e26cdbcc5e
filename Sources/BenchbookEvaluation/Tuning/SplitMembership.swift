/// Which splits train on each row, and which test it: what a neighbour search shared by many splits must know
/// about every row it meets.
///
/// Training membership is a bit per (split, row), 8 MB for sixty-five splits of a million rows; the splits
/// testing a row are a short list per row, in split order.
struct SplitMembership: Sendable {
  private let wordsPerSplit: Int
  private let trainingBits: [UInt64]
  /// `testedBy[testOffsets[row]..<testOffsets[row + 1]]` lists the splits testing `row`.
  private let testOffsets: [Int]
  private let testedBy: [Int32]

  init(_ splits: [NeighborGraphPass.Split], rowCount: Int) {
    let words = (rowCount + 63) / 64
    var bits = [UInt64](repeating: 0, count: words * splits.count)
    var counts = [Int](repeating: 0, count: rowCount + 1)
    for (s, split) in splits.enumerated() {
      split.train.forEachRow { bits[s * words + $0 >> 6] |= 1 << UInt64($0 & 63) }
      split.test.forEachRow { counts[$0 + 1] += 1 }
    }
    for row in 0..<rowCount { counts[row + 1] += counts[row] }
    var next = counts
    var tested = [Int32](repeating: 0, count: counts[rowCount])
    for (s, split) in splits.enumerated() {
      split.test.forEachRow { row in
        tested[next[row]] = Int32(s)
        next[row] += 1
      }
    }
    wordsPerSplit = words
    trainingBits = bits
    testOffsets = counts
    testedBy = tested
  }

  /// Whether `split` trains on `row`.
  @inline(__always)
  func trains(_ split: Int, _ row: Int) -> Bool {
    trainingBits[split * wordsPerSplit + row >> 6] >> UInt64(row & 63) & 1 != 0
  }

  /// The splits testing `row`, in split order.
  func splits(testing row: Int) -> LazyMapSequence<ArraySlice<Int32>, Int> {
    testedBy[testOffsets[row]..<testOffsets[row + 1]].lazy.map(Int.init)
  }

  /// Position of `row`'s first (row, split testing it) pair among all rows' pairs, in row order.
  func firstEntry(of row: Int) -> Int { testOffsets[row] }

  /// How many (row, split testing it) pairs the rows of `block` make.
  func entryCount(of block: Range<Int>) -> Int {
    testOffsets[block.upperBound] - testOffsets[block.lowerBound]
  }
}
