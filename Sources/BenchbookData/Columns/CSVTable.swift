/// The columns a caller asked a `CSVReader` for, with the line each record started on.
public struct CSVTable: Sendable {
  /// The file as errors name it.
  public let path: String
  /// Every header name, in file order (not only the extracted ones).
  public let header: [String]
  /// The extracted columns, in the order requested.
  public let columns: [TextColumn]
  /// Physical line (1-based, header is line 1) where each record starts.
  public let lineNumbers: LineNumbers

  public var rowCount: Int { lineNumbers.count }

  /// The extracted column with this header name.
  public func column(named name: String) -> TextColumn? {
    columns.first { $0.name == name }
  }
}
