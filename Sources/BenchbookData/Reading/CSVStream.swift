/// Reads a data file's CSV as it streams from disk: the header when created, then the requested
/// columns, each kept as `ColumnBuilder` keeps it, never the whole text.
///
/// Parsing follows `CSVReader` exactly (the same scanner, checks and messages); only a window of
/// the contents is in memory, grown when one record is longer than it.
public final class CSVStream {
  /// The file as errors name it.
  public let path: String
  /// Column names in file order, as `CSVReader.header`.
  public private(set) var header: [String] = []
  /// The first column, skipped because it holds row names (R's or pandas'); `nil` when there is none.
  public private(set) var rowNames: RowNamesColumn?
  public let dialect: CSVDialect
  private var fieldCount = 0
  private var firstField = 0
  private let contents: ContentStream
  private var buffer: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var filled = 0
  /// Where the first unread record starts in `buffer`.
  private var position = 0
  private var isAtEnd = false
  private var dataLine = 1

  /// Opens the file and parses its header, as `CSVReader` does.
  /// - Parameters:
  ///   - location: Where errors about the file as a whole point (the spec entry that named it).
  ///   - windowBytes: Contents held at a time (grown for a longer record); small values let tests put
  ///     chunk boundaries everywhere.
  ///   - blockBytes: Stored bytes read at a time.
  ///   - dialect: How the file is written; by default what its name implies (`CSVDialect(path:)`).
  public init(
    path: String, reportingAt location: SourceLocation? = nil, windowBytes: Int = 4 << 20,
    blockBytes: Int = 1 << 20, dialect: CSVDialect? = nil
  ) throws(DataError) {
    self.path = DataFile.displayPath(path)
    self.dialect = dialect ?? CSVDialect(path: path)
    contents = try ContentStream(path: path, reportingAt: location, blockSize: blockBytes)
    capacity = max(windowBytes, 1)
    buffer = .allocate(capacity: capacity)
    repeat { try readMore(line: 1) } while filled < 3 && !isAtEnd
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    if filled >= 3 && buffer[0] == bom[0] && buffer[1] == bom[1] && buffer[2] == bom[2] { position = 3 }
    try readHeader()
  }

  deinit { buffer.deallocate() }

  private var window: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer, count: filled) }

  /// Keeps the unread bytes, moved to the front, and fills the rest of the window (twice the room when
  /// one record fills it all, up to `Limits.recordBytes`: an endless line, a gzip bomb's included, ends in an
  /// error at `line` rather than in memory exhausted).
  private func readMore(line: Int) throws(DataError) {
    if position > 0 {
      let kept = filled - position
      if kept > 0 { buffer.update(from: buffer + position, count: kept) }
      filled = kept
      position = 0
    }
    if filled == capacity {
      guard capacity < Limits.recordBytes else {
        throw DataError(
          .malformedCSV, at: SourceLocation(file: path, line: line),
          "a record longer than \(Limits.recordBytes) bytes, the limit on line length (see docs/commands.md, Limits)")
      }
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
      grown.initialize(from: buffer, count: filled)
      buffer.deallocate()
      buffer = grown
      capacity *= 2
    }
    while filled < capacity && !isAtEnd {
      let got = try contents.read(into: UnsafeMutableBufferPointer(start: buffer + filled, count: capacity - filled))
      if got == 0 { isAtEnd = true }
      filled += got
    }
  }

  private func readHeader() throws(DataError) {
    let headerLocation = SourceLocation(file: path, line: 1)
    var names: [String] = []
    var start = position
    let delimiter = dialect.delimiter
    while true {
      // `readMore` may move the unread bytes to the front of the window.
      start = position
      var scanner = RecordScanner(
        input: window, path: path, position: position, line: 1, capacity: 64, delimiter: delimiter)
      scanner.rebase(window, position: position, isFinal: isAtEnd)
      let found = try scanner.next()
      if scanner.needsMore {
        try readMore(line: 1)
        continue
      }
      guard found else {
        throw DataError(
          .malformedCSV, at: headerLocation, "the file is empty; expected \(CSVHeader.firstLine(dialect))")
      }
      guard !scanner.wasBlank else {
        throw DataError(
          .malformedCSV, at: headerLocation, "the first line is empty; expected \(CSVHeader.firstLine(dialect))")
      }
      if scanner.fieldCount > scanner.capacity {
        // Rare: wide files. Scan the header again with room for every field.
        var wide = RecordScanner(
          input: window, path: path, position: position, line: 1, capacity: scanner.fieldCount, delimiter: delimiter)
        wide.rebase(window, position: position, isFinal: isAtEnd)
        _ = try wide.next()
        names = (0..<wide.fieldCount).map { wide.fieldText($0) }
      } else {
        names = (0..<scanner.fieldCount).map { scanner.fieldText($0) }
      }
      position = scanner.position
      dataLine = scanner.line
      break
    }
    let interpreted = try CSVHeader.interpret(names, dialect: dialect, path: path)
    header = interpreted.names
    rowNames = interpreted.rowNames
    fieldCount = interpreted.fieldCount
    firstField = interpreted.firstField
    if interpreted.firstRecordIsData {
      // The first record is data: read it again as a record.
      position = start
      dataLine = 1
    }
  }

  /// Reads every record, checking its field count against the header, and builds the requested columns.
  /// - Returns: the columns in request order, and the line each record started on.
  /// - Throws: `DataError` for a ragged record, a malformed quote or unreadable contents.
  func read(_ requests: [ColumnBuilder.Request]) throws(DataError) -> (
    columns: [LoadedColumn], lineNumbers: LineNumbers
  ) {
    let fields = requests.map { request in
      guard let index = header.firstIndex(of: request.name) else {
        preconditionFailure("column '\(request.name)' is not in the header")
      }
      return index + firstField
    }
    let expected = fieldCount
    let delimiter = dialect.delimiter
    let estimatedRows = estimateRows()
    let decimal = dialect.decimalSeparator
    var builders = requests.map { ColumnBuilder($0, estimatedRows: estimatedRows, decimal: decimal) }
    var scratch = GrowableBuffer<UInt8>(capacity: 256)
    var finished = false
    defer {
      scratch.deallocate()
      if !finished { for builder in builders { builder.discard() } }
    }
    var lines = LineNumbers()
    var scanner = RecordScanner(
      input: window, path: path, position: position, line: dataLine, capacity: expected, delimiter: delimiter)
    scanner.rebase(window, position: position, isFinal: isAtEnd)
    var row = 0
    while true {
      while try scanner.next() {
        guard scanner.fieldCount == expected else { throw scanner.raggedRecord(expected: expected) }
        for slot in builders.indices {
          let fits = scanner.withField(fields[slot], scratch: &scratch) { cell -> Bool in
            guard !builders[slot].textOverflows(adding: cell.count) else { return false }
            builders[slot].add(cell, row: row)
            return true
          }
          guard fits else {
            throw DataError(
              .malformedCSV, at: SourceLocation(file: path, line: scanner.recordLine),
              "column '\(header[fields[slot] - firstField])' holds more than 4 GiB of text")
          }
        }
        lines.append(scanner.recordLine)
        row += 1
      }
      guard scanner.needsMore else { break }
      position = scanner.position
      try readMore(line: scanner.line)
      scanner.rebase(window, position: position, isFinal: isAtEnd)
    }
    position = scanner.position
    finished = true
    return (builders.indices.map { builders[$0].finish() }, lines)
  }

  /// SHA-256 of the file as stored, once the records have been read.
  public func sha256() throws(DataError) -> String { try contents.sha256() }

  /// The named columns' text, as `CSVReader.read(columns:)` gives it; for tests and tools, since the
  /// loader keeps numbers rather than text.
  public func readText(columns names: [String]) throws(DataError) -> CSVTable {
    for name in names where !header.contains(name) {
      throw DataError(
        .unknownColumn, at: SourceLocation(file: path, line: 1), column: name, "no column '\(name)' in the header")
    }
    let (columns, lineNumbers) = try read(names.map { ColumnBuilder.Request(name: $0, keepsText: true) })
    return CSVTable(path: path, header: header, columns: columns.map { $0.text! }, lineNumbers: lineNumbers)
  }

  /// Rows to reserve room for: the contents' estimated size over the mean length of the first lines
  /// (+10%). A guess only; columns grow if it is short.
  private func estimateRows() -> Int {
    let sampleEnd = min(filled, position + 65_536)
    var newlines = 0
    for index in position..<max(position, sampleEnd) where buffer[index] == RecordScanner.lineFeed { newlines += 1 }
    guard newlines > 0 else { return 1_024 }
    let meanLength = Double(sampleEnd - position) / Double(newlines)
    let size = isAtEnd ? filled - position : max(contents.estimatedSize, filled) - position
    return Int(Double(size) / meanLength * 1.1) + 16
  }
}
