/// Which splits train on each row, and which test it: what a neighbour search shared by many splits must know
/// about every row it meets.
///
/// Training membership is a bit per (split, row), 8 MB for sixty-five splits of a million rows, stored row by row:
/// the splits a neighbour trains in are one or two words, read once for every split that asks (`gatherRows`),
/// where bits stored split by split take a cache miss for each of the splits testing a query. The splits testing a
/// row are a short list per row, in split order.
struct SplitMembership: Sendable {
  /// Words of training bits per row: bit `s & 63` of word `s >> 6` says whether split `s` trains on the row.
  let wordsPerRow: Int
  private let trainingBits: [UInt64]
  /// `testedBy[testOffsets[row]..<testOffsets[row + 1]]` lists the splits testing `row`.
  private let testOffsets: [Int]
  private let testedBy: [Int32]

  init(_ splits: [NeighborGraphPass.Split], rowCount: Int) {
    let words = max(1, (splits.count + 63) / 64)
    var bits = [UInt64](repeating: 0, count: words * rowCount)
    var counts = [Int](repeating: 0, count: rowCount + 1)
    for (s, split) in splits.enumerated() {
      let (word, bit) = (s >> 6, UInt64(1) << UInt64(s & 63))
      split.train.forEachRow { bits[$0 * words + word] |= bit }
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
    wordsPerRow = words
    trainingBits = bits
    testOffsets = counts
    testedBy = tested
  }

  /// Whether `split` trains on `row`.
  @inline(__always)
  func trains(_ split: Int, _ row: Int) -> Bool {
    trainingBits[row * wordsPerRow + split >> 6] >> UInt64(split & 63) & 1 != 0
  }

  /// Copies the training words of each of `rows` to `out`, `wordsPerRow` apiece, for `trainingBit(_:gathered:at:)`.
  func gatherRows(_ rows: ArraySlice<Int>, into out: UnsafeMutablePointer<UInt64>) {
    trainingBits.withUnsafeBufferPointer { bits in
      // Through buffer pointers, indexed without overflow checks: this runs for every neighbour of every query.
      rows.withUnsafeBufferPointer { rows in
        var o = 0
        for row in rows {
          for w in 0..<wordsPerRow { out[o &+ w] = bits[row &* wordsPerRow &+ w] }
          o &+= wordsPerRow
        }
      }
    }
  }

  /// 1 if `split` trains on the `i`th row `gatherRows` copied to `gathered`, else 0: a number, for counting
  /// without a branch.
  @inline(__always)
  func trainingBit(_ split: Int, gathered: UnsafePointer<UInt64>, at i: Int) -> Int {
    Int(truncatingIfNeeded: gathered[i &* wordsPerRow &+ split &>> 6] &>> UInt64(split & 63) & 1)
  }

  /// The splits testing `row`, in split order.
  func splits(testing row: Int) -> LazyMapSequence<ArraySlice<Int32>, Int> {
    testedBy[testOffsets[row]..<testOffsets[row + 1]].lazy.map(Int.init)
  }

  /// How many splits test `row`: its (row, split testing it) pairs.
  func entryCount(of row: Int) -> Int { testOffsets[row + 1] - testOffsets[row] }
}
