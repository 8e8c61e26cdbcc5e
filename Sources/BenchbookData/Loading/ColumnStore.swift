/// The columns of one load, as the streaming read kept them: each column's
/// profile, and its text and times where a role needs them.
final class ColumnStore {
  /// The file as errors name it.
  let path: String
  /// Physical line (1-based, header is line 1) where each record starts.
  let lineNumbers: LineNumbers
  private var columns: [LoadedColumn]
  private var slotsByName: [String: Int] = [:]

  typealias TimestampScan = LoadedColumn.TimestampScan

  init(path: String, columns: [LoadedColumn], lineNumbers: LineNumbers) {
    self.path = path
    self.columns = columns
    self.lineNumbers = lineNumbers
    for (slot, column) in columns.enumerated() { slotsByName[column.name] = slot }
  }

  /// Data rows read.
  var rowCount: Int { lineNumbers.count }

  func slot(_ name: String) -> Int {
    guard let slot = slotsByName[name] else { preconditionFailure("column '\(name)' was not extracted") }
    return slot
  }

  func name(_ slot: Int) -> String { columns[slot].name }

  func profile(_ slot: Int) -> ColumnProfile { columns[slot].profile }

  /// Every cell's text, for categories.
  func text(_ slot: Int) -> TextColumn {
    guard let text = columns[slot].text else { preconditionFailure("the text of '\(columns[slot].name)' was not kept") }
    return text
  }

  /// Whether the column's text was kept.
  func hasText(_ slot: Int) -> Bool { columns[slot].text != nil }

  /// Adds text read in a second pass.
  func setText(_ text: TextColumn, slot: Int) { columns[slot].text = text }

  /// Frees a column's values, text and times once nothing reads them; its counts and quoted cells stay.
  func release(_ slot: Int) {
    columns[slot].profile = columns[slot].profile.releasingValues()
    columns[slot].text = nil
    columns[slot].timestamps = nil
  }

  /// Each cell parsed as it was read, by the column's declared format or else as ISO 8601; without a
  /// declared format a numeric column's values are Unix seconds already.
  func timestamps(_ slot: Int) -> TimestampScan {
    if let scan = columns[slot].timestamps { return scan }
    let profile = columns[slot].profile
    guard profile.isNumeric else { preconditionFailure("'\(columns[slot].name)' was not read as times") }
    return TimestampScan(seconds: profile.numbers, firstFailure: nil)
  }

  /// The error for a cell read as a time that is none: it does not match the column's declared format, or
  /// (without one) is neither ISO 8601 nor a number.
  /// - Parameters:
  ///   - kind: `.notATimestamp`, or `.notANumber` where an expression reads the column.
  ///   - use: how the spec reads the column, ending the message when there is no declared format.
  func notATime(_ slot: Int, row: Int, kind: DataError.Kind = .notATimestamp, use: String) -> DataError {
    let quoted = quoted(slot, row: row)
    if let declared = columns[slot].timeFormat {
      let reason = declared.format.mismatch(cellText(slot, row: row)).map { ": \($0)" } ?? ""
      return DataError(
        kind, at: location(row: row), column: name(slot),
        "\(quoted) does not match the format '\(declared.format.text)' declared at \(declared.location)\(reason)")
    }
    return DataError(kind, at: location(row: row), column: name(slot), "\(quoted) \(use)")
  }

  /// The format to declare for the column, for a message about the cell at `row` that is no time (`declare it with
  /// <hint>`): `declaring` turns a format into the spec text (`data: {formats: {date: "%m/%d/%Y"}}`). The day and
  /// month order is the one the column's values show; when they do not tell, both orders are offered, never a guess.
  func formatHint(_ slot: Int, row: Int, declaring: (String) -> String) -> String {
    let formats = columns[slot].dateOrder.formats(for: cellText(slot, row: row))
    switch formats.count {
    case 0: return "`\(declaring("%Y/%m/%d"))`"
    case 1: return "`\(declaring(formats[0]))`"
    default:
      return "`\(declaring(formats[0]))` if its dates put the day first, or `\(declaring(formats[1]))` if the "
        + "month first (its values do not tell which)"
    }
  }

  /// Whether the column's times come from a declared format.
  func hasTimeFormat(_ slot: Int) -> Bool { columns[slot].timeFormat != nil }

  /// The line a row started on, for messages.
  func location(row: Int) -> SourceLocation {
    SourceLocation(file: path, line: lineNumbers[row])
  }

  /// A cell's text as written; only the cells `LoadedColumn.quotedCells` keeps, or any when the text was kept.
  func cellText(_ slot: Int, row: Int) -> String {
    if let text = columns[slot].quotedCells[row] { return text }
    return text(slot)[row]
  }

  /// A cell's text quoted for messages, shortened if long.
  func quoted(_ slot: Int, row: Int) -> String {
    let text = cellText(slot, row: row)
    return text.count > 40 ? "'\(text.prefix(40))…'" : "'\(text)'"
  }
}
