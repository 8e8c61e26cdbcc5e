/// A set of rows among `0..<count`, one bit a row, walked a 64-row word at a time.
///
/// Passes over every row of a large dataset mark a few rows, or all but a block, and then walk them; a
/// word at a time, an empty stretch costs one test per 64 rows. One type serves them all: the rows of
/// a `RowIndices` put in order, the rows the cross-fold duplicates check must look at, and the training
/// rows a shared neighbour search admits, with the run it may skip.
public struct RowBitSet: Sendable, Equatable {
  /// Rows `64·i ..< 64·i + 64` in word `i`, the lowest row in the lowest bit; bits from `count` on are clear.
  @usableFromInline
  var words: [UInt64]
  /// Rows the set ranges over.
  public let count: Int

  /// The empty set over rows `0..<count`.
  public init(count: Int) {
    precondition(count >= 0, "a row set cannot range over \(count) rows")
    self.count = count
    words = [UInt64](repeating: 0, count: (count + 63) / 64)
  }

  /// The set of `rows` over `0..<count`.
  public init(_ rows: some Sequence<Int>, count: Int) {
    self.init(count: count)
    for row in rows { insert(row) }
  }

  @inlinable
  public mutating func insert(_ row: Int) {
    precondition(row >= 0 && row < count, "row \(row) is outside 0..<\(count)")
    words[row &>> 6] |= 1 &<< UInt64(row & 63)
  }

  @inlinable
  public func contains(_ row: Int) -> Bool {
    words[row &>> 6] & (1 &<< UInt64(row & 63)) != 0
  }

  /// `contains` without bounds checks, for a search that asks for every row it meets.
  /// - Precondition: `0 <= row < count`; not checked.
  @inlinable
  public func withContains<Result>(_ body: ((Int) -> Bool) -> Result) -> Result {
    words.withUnsafeBufferPointer { words in
      body { row in words[row &>> 6] & (1 &<< UInt64(row & 63)) != 0 }
    }
  }

  /// Calls `body` with every row in the set, in ascending order.
  @inlinable
  public func forEach(_ body: (Int) -> Void) {
    words.withUnsafeBufferPointer { words in
      for (index, word) in words.enumerated() {
        var word = word
        while word != 0 {
          body(index &<< 6 | word.trailingZeroBitCount)
          word &= word &- 1
        }
      }
    }
  }

  /// Calls `body` with every row of the set within `rows`, in ascending order.
  @inlinable
  public func forEach(in rows: Range<Int>, _ body: (Int) -> Void) {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= count, "rows \(rows) are outside 0..<\(count)")
    words.withUnsafeBufferPointer { words in
      var row = rows.lowerBound
      while row < rows.upperBound {
        let word = words[row &>> 6] &>> UInt64(row & 63)
        if word == 0 {
          row = (row | 63) &+ 1  // the rest of this word is clear
          continue
        }
        row &+= word.trailingZeroBitCount
        if row < rows.upperBound { body(row) }
        row &+= 1
      }
    }
  }

  /// The longest run of rows not in the set (the first such run on a tie); empty when every row is in it.
  public func longestClearRun() -> Range<Int> {
    var longest = 0..<0
    var start = 0
    var row = 0
    while row < count {
      let word = words[row >> 6] >> UInt64(row & 63)
      if word == 0 {
        row = min(count, (row | 63) + 1)  // the rest of this word is clear
        continue
      }
      let clear = word.trailingZeroBitCount
      if clear > 0 {
        row = min(count, row + clear)
        continue
      }
      if row - start > longest.count { longest = start..<row }
      row += (~word).trailingZeroBitCount  // past the rows in the set, to the next one not in it
      start = row
    }
    if count - start > longest.count { longest = start..<count }
    return longest
  }
}
