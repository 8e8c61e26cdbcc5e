/// One pass over a column's text: which cells are missing, which are numbers
/// (and their values), which are other text. Type inference, the missing
/// policy and numeric features all read from it.
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

  init(_ column: TextColumn) {
    var numericCount = 0
    var textCount = 0
    var missingCount = 0
    var firstTextRow: Int?
    var firstOverflowRow: Int?
    var missing = [Bool](repeating: false, count: column.count)
    let numbers = [Double](unsafeUninitializedCapacity: column.count) { values, initialized in
      column.withCells { cells in
        for row in 0..<cells.count {
          let cell = cells[row]
          if MissingValue.isMissing(cell) {
            missing[row] = true
            missingCount += 1
            values[row] = .nan
          } else if let number = NumberParser.value(cell) {
            numericCount += 1
            values[row] = number
            if !number.isFinite && firstOverflowRow == nil { firstOverflowRow = row }
          } else {
            textCount += 1
            if firstTextRow == nil { firstTextRow = row }
            values[row] = .nan
          }
        }
      }
      initialized = column.count
    }
    self.numbers = numbers
    self.missing = missing
    self.numericCount = numericCount
    self.textCount = textCount
    self.missingCount = missingCount
    self.firstTextRow = firstTextRow
    self.firstOverflowRow = firstOverflowRow
  }

  /// Every non-missing value is a number (also true when all are missing).
  var isNumeric: Bool { textCount == 0 }

  /// Most values are numbers but not all: likely a typo in the data, so
  /// inference refuses to guess.
  var isMostlyNumeric: Bool { textCount > 0 && numericCount > textCount }
}
