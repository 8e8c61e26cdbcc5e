/// What one pass over a column's cells found (`ColumnBuilder` makes it as the
/// file streams): which cells are missing, which are numbers (and their
/// values), which are other text. Type inference, the missing policy and
/// numeric features all read from it.
struct ColumnProfile {
  /// Each cell's value; `NaN` where the cell is missing or not a number.
  let numbers: [Double]
  let missing: [Bool]
  let numericCount: Int
  let textCount: Int
  let missingCount: Int
  /// First row whose non-missing value is not a number.
  let firstTextRow: Int?
  /// First row written as a number too large for a `Double`; counted as a number (so inference is not
  /// fooled) but an error wherever the column is used as numbers.
  let firstOverflowRow: Int?

  init(
    numbers: [Double], missing: [Bool], numericCount: Int, textCount: Int, missingCount: Int, firstTextRow: Int?,
    firstOverflowRow: Int?
  ) {
    self.numbers = numbers
    self.missing = missing
    self.numericCount = numericCount
    self.textCount = textCount
    self.missingCount = missingCount
    self.firstTextRow = firstTextRow
    self.firstOverflowRow = firstOverflowRow
  }

  /// The same counts without the per-cell values, for a column no longer read.
  func releasingValues() -> ColumnProfile {
    ColumnProfile(
      numbers: [], missing: [], numericCount: numericCount, textCount: textCount, missingCount: missingCount,
      firstTextRow: firstTextRow, firstOverflowRow: firstOverflowRow)
  }

  /// Every non-missing value is a number (also true when all are missing).
  var isNumeric: Bool { textCount == 0 }

  /// Most values are numbers but not all: likely a typo in the data, so
  /// inference refuses to guess.
  var isMostlyNumeric: Bool { textCount > 0 && numericCount > textCount }
}
