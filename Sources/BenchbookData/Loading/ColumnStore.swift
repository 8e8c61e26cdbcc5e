/// The extracted columns of one load, with each column's profile and
/// timestamps computed at most once however many roles use the column.
final class ColumnStore {
  let table: CSVTable
  private var slotsByName: [String: Int] = [:]
  private var profiles: [Int: ColumnProfile] = [:]
  private var timestampScans: [Int: TimestampScan] = [:]

  /// A column read as timestamps: seconds per row (`NaN` when missing), and
  /// the first non-missing cell that is neither ISO-8601 nor a number.
  struct TimestampScan {
    let seconds: [Double]
    let firstFailure: Int?
  }

  init(table: CSVTable) {
    self.table = table
    for (slot, column) in table.columns.enumerated() { slotsByName[column.name] = slot }
  }

  func slot(_ name: String) -> Int {
    guard let slot = slotsByName[name] else { preconditionFailure("column '\(name)' was not extracted") }
    return slot
  }

  func column(_ slot: Int) -> TextColumn { table.columns[slot] }

  func profile(_ slot: Int) -> ColumnProfile {
    if let known = profiles[slot] { return known }
    let profile = ColumnProfile(table.columns[slot])
    profiles[slot] = profile
    return profile
  }

  /// A numeric column's values are Unix seconds already; otherwise each cell is parsed.
  func timestamps(_ slot: Int) -> TimestampScan {
    if let known = timestampScans[slot] { return known }
    let profile = self.profile(slot)
    let scan: TimestampScan
    if profile.isNumeric {
      scan = TimestampScan(seconds: profile.numbers, firstFailure: nil)
    } else {
      let column = table.columns[slot]
      var firstFailure: Int?
      let seconds = column.withCells { cells in
        (0..<cells.count).map { row -> Double in
          if profile.missing[row] { return .nan }
          if let value = Timestamp.seconds(from: cells[row]) { return value }
          if firstFailure == nil { firstFailure = row }
          return .nan
        }
      }
      scan = TimestampScan(seconds: seconds, firstFailure: firstFailure)
    }
    timestampScans[slot] = scan
    return scan
  }

  /// The line a row started on, for messages.
  func location(row: Int) -> SourceLocation {
    SourceLocation(file: table.path, line: table.lineNumbers[row])
  }

  /// A cell's text quoted for messages, shortened if long.
  func quoted(_ slot: Int, row: Int) -> String {
    let text = table.columns[slot][row]
    return text.count > 40 ? "'\(text.prefix(40))…'" : "'\(text)'"
  }
}
