/// Reads CSV text: the header when created, then only the columns asked for.
///
/// Every record's field count is still checked against the header, so a
/// ragged file is caught even in columns nobody uses.
public struct CSVReader: Sendable {
  /// The file as errors name it.
  public let path: String
  /// Column names in file order (from the first record, the spec or generated; see `CSVDialect`), without
  /// a row-name column.
  public let header: [String]
  /// The first column, skipped because it holds row names (R's or pandas'); `nil` when there is none.
  public let rowNames: RowNamesColumn?
  public let dialect: CSVDialect
  private let bytes: [UInt8]
  private let dataStart: Int
  private let dataLine: Int
  private let fieldCount: Int
  private let firstField: Int

  /// Parses the header row.
  ///
  /// A UTF-8 byte-order mark is skipped. Empty and duplicate names are errors,
  /// since columns are found by name.
  /// - Parameter path: Names the file in errors.
  public init(bytes: [UInt8], path: String, dialect: CSVDialect = .standard) throws(DataError) {
    self.bytes = bytes
    self.path = path
    self.dialect = dialect
    let headerLocation = SourceLocation(file: path, line: 1)
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let start = bytes.starts(with: bom) ? 3 : 0
    let parsed = try bytes.withUnsafeBufferPointer {
      (input) throws(DataError) -> (names: [String], end: Int, line: Int) in
      var scanner = RecordScanner(
        input: input, path: path, position: start, line: 1, capacity: 64, delimiter: dialect.delimiter)
      guard try scanner.next() else {
        throw DataError(
          .malformedCSV, at: headerLocation, "the file is empty; expected \(CSVHeader.firstLine(dialect))")
      }
      guard !scanner.wasBlank else {
        throw DataError(
          .malformedCSV, at: headerLocation, "the first line is empty; expected \(CSVHeader.firstLine(dialect))")
      }
      var names: [String] = []
      if scanner.fieldCount > scanner.capacity {
        // Rare: wide files. Scan the header again with room for every field.
        var wide = RecordScanner(
          input: input, path: path, position: start, line: 1, capacity: scanner.fieldCount,
          delimiter: dialect.delimiter)
        _ = try wide.next()
        names = (0..<wide.fieldCount).map { wide.fieldText($0) }
      } else {
        names = (0..<scanner.fieldCount).map { scanner.fieldText($0) }
      }
      return (names, scanner.position, scanner.line)
    }
    let header = try CSVHeader.interpret(parsed.names, dialect: dialect, path: path)
    self.header = header.names
    rowNames = header.rowNames
    fieldCount = header.fieldCount
    firstField = header.firstField
    dataStart = header.firstRecordIsData ? start : parsed.end
    dataLine = header.firstRecordIsData ? 1 : parsed.line
  }

  /// Reads the file at `path` (gunzipping `.gz` content) and parses its header.
  /// - Parameter dialect: How the file is written; by default what its name implies (`CSVDialect(path:)`).
  public init(path: String, dialect: CSVDialect? = nil) throws(DataError) {
    try self.init(
      bytes: DataFile.contents(atPath: path), path: DataFile.displayPath(path),
      dialect: dialect ?? CSVDialect(path: path))
  }

  /// Extracts the named columns from every record.
  /// - Throws: `DataError` for an unknown name, a ragged record or a malformed quote.
  public func read(columns names: [String]) throws(DataError) -> CSVTable {
    var indices: [Int] = []
    for name in names {
      guard let index = header.firstIndex(of: name) else {
        throw DataError(
          .unknownColumn, at: SourceLocation(file: path, line: 1), column: name,
          "no column '\(name)' in the header")
      }
      indices.append(index)
    }
    return try read(columnIndices: indices)
  }

  /// Extracts the columns at these header positions from every record.
  ///
  /// - Complexity: O(file size); memory grows with the extracted columns only.
  public func read(columnIndices: [Int]) throws(DataError) -> CSVTable {
    precondition(columnIndices.allSatisfy { header.indices.contains($0) }, "column index outside the header")
    let expected = fieldCount
    let firstField = self.firstField
    let delimiter = dialect.delimiter
    let path = self.path
    let slots = columnIndices.count
    let estimatedRows = estimateRows()
    let cellBytes = UnsafeMutableBufferPointer<GrowableBuffer<UInt8>>.allocate(capacity: slots)
    let cellEnds = UnsafeMutableBufferPointer<GrowableBuffer<UInt32>>.allocate(capacity: slots)
    for slot in 0..<slots {
      cellBytes.initializeElement(at: slot, to: GrowableBuffer(capacity: estimatedRows * 4))
      cellEnds.initializeElement(at: slot, to: GrowableBuffer(capacity: estimatedRows))
    }
    var lines = LineNumbers()
    var finished = false
    defer {
      if !finished {
        for slot in 0..<slots {
          cellBytes[slot].deallocate()
          cellEnds[slot].deallocate()
        }
      }
      cellBytes.deallocate()
      cellEnds.deallocate()
    }

    try bytes.withUnsafeBufferPointer { (input) throws(DataError) in
      var scanner = RecordScanner(
        input: input, path: path, position: dataStart, line: dataLine, capacity: expected, delimiter: delimiter)
      while try scanner.next() {
        guard scanner.fieldCount == expected else { throw scanner.raggedRecord(expected: expected) }
        for slot in 0..<slots {
          let field = columnIndices[slot] + firstField
          scanner.copyField(field, to: &cellBytes[slot])
          let end = cellBytes[slot].count
          guard end <= Int(UInt32.max) else {
            throw DataError(
              .malformedCSV, at: SourceLocation(file: path, line: scanner.recordLine),
              "column '\(header[field - firstField])' holds more than 4 GiB of text")
          }
          cellEnds[slot].append(UInt32(truncatingIfNeeded: end))
        }
        lines.append(scanner.recordLine)
      }
    }
    finished = true
    let columns = (0..<slots).map { slot in
      TextColumn(name: header[columnIndices[slot]], bytes: cellBytes[slot].finish(), ends: cellEnds[slot].finish())
    }
    return CSVTable(path: path, header: header, columns: columns, lineNumbers: lines)
  }

  /// Rows to reserve room for: the file's size over the mean length of the
  /// first lines (+10%). A guess only; buffers grow if it is short.
  private func estimateRows() -> Int {
    let sampleEnd = min(bytes.count, dataStart + 65_536)
    var newlines = 0
    for index in dataStart..<sampleEnd where bytes[index] == RecordScanner.lineFeed { newlines += 1 }
    guard newlines > 0 else { return 1_024 }
    let meanLength = Double(sampleEnd - dataStart) / Double(newlines)
    return Int(Double(bytes.count - dataStart) / meanLength * 1.1) + 16
  }
}
