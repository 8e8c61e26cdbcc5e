/// The columns of a delimited file as its dialect reads the first record: names from the header (the
/// row-name column left out), or from the spec or generated when the file has none.
///
/// `CSVReader` and `CSVStream` share it, so both read every file alike.
struct CSVHeader {
  /// Column names in file order, the row-name column excluded; found by these names.
  var names: [String]
  /// Fields in every record.
  var fieldCount: Int
  /// The field that holds `names[0]`: 1 after a row-name column, else 0.
  var firstField: Int
  /// The skipped first column, when the header announced one.
  var rowNames: RowNamesColumn?
  /// Whether the first record is data (a file without a header).
  var firstRecordIsData: Bool

  /// Reads the first record's fields as `dialect` says.
  /// - Throws: `DataError` for an empty or duplicate name, or for `dialect.columnNames` of the wrong count.
  static func interpret(_ fields: [String], dialect: CSVDialect, path: String) throws(DataError) -> CSVHeader {
    let headerLocation = SourceLocation(file: path, line: 1)
    guard dialect.hasHeader else {
      var names = (1...max(1, fields.count)).map { "V\($0)" }
      if let given = dialect.columnNames {
        guard given.count == fields.count else {
          throw DataError(
            .malformedCSV, at: dialect.columnNamesLocation ?? headerLocation,
            "'columns' lists \(given.count) name\(given.count == 1 ? "" : "s"), but the first record of "
              + "\(DataFile.fileName(path)) has \(fields.count) field\(fields.count == 1 ? "" : "s")")
        }
        names = given
      }
      try checkNames(names, at: headerLocation)
      return CSVHeader(names: names, fieldCount: fields.count, firstField: 0, rowNames: nil, firstRecordIsData: true)
    }
    if fields.count > 1, let rowNames = RowNamesColumn.announced(byFirstField: fields[0]) {
      let names = Array(fields.dropFirst())
      try checkNames(names, at: headerLocation, offset: 1)
      return CSVHeader(
        names: names, fieldCount: fields.count, firstField: 1, rowNames: rowNames, firstRecordIsData: false)
    }
    try checkNames(fields, at: headerLocation)
    return CSVHeader(names: fields, fieldCount: fields.count, firstField: 0, rowNames: nil, firstRecordIsData: false)
  }

  /// What the first line should hold, for messages about an empty one.
  static func firstLine(_ dialect: CSVDialect) -> String {
    dialect.hasHeader ? "a header row of column names" : "a first record (the file has no header)"
  }

  /// Columns are found by name, so every name must be present and unique.
  /// - Parameter offset: fields before `names[0]`, so messages count the file's columns.
  static func checkNames(_ names: [String], at headerLocation: SourceLocation, offset: Int = 0) throws(DataError) {
    var seen: [String: Int] = [:]
    for (index, name) in names.enumerated() {
      guard !name.isEmpty else {
        throw DataError(
          .malformedCSV, at: headerLocation,
          "header column \(index + offset + 1) has no name; every column needs a unique name")
      }
      if let earlier = seen[name] {
        throw DataError(
          .malformedCSV, at: headerLocation,
          "duplicate column name '\(name)' in the header (columns \(earlier + offset + 1) and \(index + offset + 1))")
      }
      seen[name] = index
    }
  }

  /// Delimiters files are commonly written with.
  static let commonDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")]

  /// Advice for a record whose fields do not match the header: when its text holds at least `needed` of
  /// another common delimiter, the file mixes delimiters or is read with the wrong one.
  static func delimiterAdvice(record: UnsafeBufferPointer<UInt8>, delimiter: UInt8, needed: Int) -> String {
    guard needed > 0 else { return "" }
    for candidate in commonDelimiters where candidate != delimiter {
      let count = record.reduce(0) { $0 + ($1 == candidate ? 1 : 0) }
      if count >= needed {
        return "; the line holds \(count) '\(CSVDialect.spelling(candidate))' while fields are split at "
          + "'\(CSVDialect.spelling(delimiter))': the file mixes delimiters, or its own is "
          + "'\(CSVDialect.spelling(candidate))' (declare it with `data: {delimiter: \"\(CSVDialect.spelling(candidate))\"}`)"
      }
    }
    return ""
  }
}
