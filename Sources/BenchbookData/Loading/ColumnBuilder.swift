/// Builds a `LoadedColumn` one cell at a time while the CSV streams past, so a
/// column's text is never held unless categories need it.
///
/// It computes, cell by cell, what `ColumnProfile` and the timestamp scan
/// would compute from the whole text afterwards, with the same rules.
struct ColumnBuilder {
  /// What a column is read for.
  struct Request: Hashable {
    var name: String
    /// Keep every cell's text (categories are made of it).
    var keepsText = false
    /// Some role may read the column as times.
    var readsTimes = false
    /// The column's declared timestamp format: every cell read as times is parsed by it, numbers too.
    var timeFormat: DeclaredTimestampFormat?
  }

  let request: Request
  /// The dialect's decimal separator.
  private let decimal: UInt8
  /// `request.timeFormat` when the column is read as times.
  private let timeFormat: TimestampFormat?
  /// The declared format's times of every cell, beside (never instead of) the ISO path's `seconds`, which
  /// then stays `nil`: columns without a format pay one test of a `Bool` per cell.
  private var formatSeconds: [Double]?
  private let hasTimeFormat: Bool
  /// Neither a format nor a decimal comma: one test on the common path.
  private let isPlain: Bool
  private var numbers: [Double] = []
  private var missing: [Bool] = []
  private var text: GrowableBuffer<UInt8>?
  private var ends: GrowableBuffer<UInt32>?
  /// Started at the first cell that is text: before it, a cell's time is its number.
  private var seconds: [Double]?
  private var numericCount = 0
  private var textCount = 0
  private var missingCount = 0
  private var firstTextRow: Int?
  private var firstOverflowRow: Int?
  private var firstMissingRow: Int?
  private var firstTimeFailure: Int?
  private var quotedCells: [Int: String] = [:]
  /// What the cells read as times that are none show of their day and month order.
  private var dateOrder = DateOrderEvidence()

  init(_ request: Request, estimatedRows: Int, decimal: UInt8 = NumberParser.point) {
    self.request = request
    self.decimal = decimal
    timeFormat = request.readsTimes ? request.timeFormat?.format : nil
    hasTimeFormat = timeFormat != nil
    isPlain = !hasTimeFormat && decimal == NumberParser.point
    numbers.reserveCapacity(estimatedRows)
    missing.reserveCapacity(estimatedRows)
    if hasTimeFormat {
      formatSeconds = []
      formatSeconds!.reserveCapacity(estimatedRows)
    }
    if request.keepsText {
      text = GrowableBuffer(capacity: estimatedRows * 4)
      ends = GrowableBuffer(capacity: estimatedRows)
    }
  }

  /// Frees the text of a builder that will not be finished.
  func discard() {
    text?.deallocate()
    ends?.deallocate()
  }

  /// Whether the kept text would pass what a cell end can address.
  func textOverflows(adding count: Int) -> Bool {
    guard let text else { return false }
    return text.count + count > Int(UInt32.max)
  }

  /// Adds the cell of the next row (`row` counts from 0).
  @inline(__always)
  mutating func add(_ cell: UnsafeBufferPointer<UInt8>, row: Int) {
    if text != nil {
      if let base = cell.baseAddress, cell.count > 0 { text!.append(base, count: cell.count) }
      ends!.append(UInt32(truncatingIfNeeded: text!.count))
    }
    if MissingValue.isMissing(cell) {
      missingCount += 1
      if firstMissingRow == nil {
        firstMissingRow = row
        quote(cell, row: row)
      }
      numbers.append(.nan)
      missing.append(true)
      seconds?.append(.nan)
      if hasTimeFormat { formatSeconds!.append(.nan) }
      return
    }
    missing.append(false)
    let parsed: Double?
    if isPlain {
      parsed = NumberParser.value(cell)
    } else {
      if hasTimeFormat { addTime(cell, row: row) }
      parsed = NumberParser.value(cell, decimal: decimal)
    }
    if let number = parsed {
      numericCount += 1
      numbers.append(number)
      if !number.isFinite && firstOverflowRow == nil {
        firstOverflowRow = row
        quote(cell, row: row)
      }
      if seconds != nil {
        // An overflowing number is no time either.
        seconds!.append(number.isFinite ? number : .nan)
        if !number.isFinite && firstTimeFailure == nil { firstTimeFailure = row }
      }
      return
    }
    textCount += 1
    numbers.append(.nan)
    if firstTextRow == nil {
      firstTextRow = row
      quote(cell, row: row)
      if request.readsTimes && !hasTimeFormat { startTimes(before: row) }
    }
    if seconds != nil {
      if let value = Timestamp.parse(cell) {
        seconds!.append(value)
      } else {
        seconds!.append(.nan)
        dateOrder.add(cell)
        if firstTimeFailure == nil {
          firstTimeFailure = row
          quote(cell, row: row)
        }
      }
    }
  }

  /// A declared format reads every cell, numbers included (`%Y%m%d` reads `20120101`).
  private mutating func addTime(_ cell: UnsafeBufferPointer<UInt8>, row: Int) {
    if let value = timeFormat!.seconds(cell) {
      formatSeconds!.append(value)
    } else {
      formatSeconds!.append(.nan)
      if firstTimeFailure == nil {
        firstTimeFailure = row
        quote(cell, row: row)
      }
    }
  }

  /// Times of the rows before the first text cell: every one is missing or a number.
  private mutating func startTimes(before row: Int) {
    var values: [Double] = []
    values.reserveCapacity(numbers.capacity)
    for earlier in 0..<row { values.append(numbers[earlier].isFinite ? numbers[earlier] : .nan) }
    firstTimeFailure = firstOverflowRow
    seconds = values
  }

  private mutating func quote(_ cell: UnsafeBufferPointer<UInt8>, row: Int) {
    quotedCells[row] = String(decoding: cell, as: UTF8.self)
  }

  /// The column; the builder must not be used afterwards.
  mutating func finish() -> LoadedColumn {
    let profile = ColumnProfile(
      numbers: numbers, missing: missing, numericCount: numericCount, textCount: textCount,
      missingCount: missingCount, firstTextRow: firstTextRow, firstOverflowRow: firstOverflowRow)
    numbers = []
    missing = []
    var column = LoadedColumn(
      name: request.name, profile: profile, text: nil, timestamps: nil, quotedCells: quotedCells,
      timeFormat: timeFormat == nil ? nil : request.timeFormat, dateOrder: dateOrder)
    if text != nil {
      column.text = TextColumn(name: request.name, bytes: text!.finish(), ends: ends!.finish())
    }
    if let formatSeconds {
      column.timestamps = LoadedColumn.TimestampScan(seconds: formatSeconds, firstFailure: firstTimeFailure)
    } else if request.readsTimes && !profile.isNumeric {
      column.timestamps = LoadedColumn.TimestampScan(seconds: seconds ?? [], firstFailure: firstTimeFailure)
    }
    return column
  }
}
