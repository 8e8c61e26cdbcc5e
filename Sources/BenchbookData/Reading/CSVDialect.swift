/// How a delimited text file is written: the field delimiter, the decimal separator of its numbers,
/// and whether its first line names the columns.
///
/// The spec's `data:` section declares these (`delimiter`, `decimal`, `header`, `columns`); the
/// default is RFC 4180 CSV with a header and decimal points, or tabs for a file named `.tsv`.
public struct CSVDialect: Sendable, Hashable {
  /// The byte between fields: `,`, `;`, a tab, `|`, … (one ASCII byte; never a quote or line break).
  public var delimiter: UInt8
  /// The byte between a number's whole and fractional parts: `.` or `,`.
  public var decimalSeparator: UInt8
  /// Whether the first record names the columns; otherwise every record is data.
  public var hasHeader: Bool
  /// Column names for a file without a header (`data.columns`); `nil` generates `V1`, `V2`, … as R's
  /// `read.csv(header = FALSE)` does.
  public var columnNames: [String]?
  /// Where `columnNames` were written in the spec, for errors about their number.
  public var columnNamesLocation: SourceLocation?

  public init(
    delimiter: UInt8 = UInt8(ascii: ","), decimalSeparator: UInt8 = UInt8(ascii: "."), hasHeader: Bool = true,
    columnNames: [String]? = nil, columnNamesLocation: SourceLocation? = nil
  ) {
    precondition(Self.allowsDelimiter(delimiter), "a delimiter is one ASCII byte other than a quote or line break")
    precondition(
      decimalSeparator == UInt8(ascii: ".") || decimalSeparator == UInt8(ascii: ","), "the decimal is '.' or ','")
    self.delimiter = delimiter
    self.decimalSeparator = decimalSeparator
    self.hasHeader = hasHeader
    self.columnNames = columnNames
    self.columnNamesLocation = columnNamesLocation
  }

  /// Comma-separated, decimal points, a header.
  public static let standard = CSVDialect()

  /// The dialect a file's name implies: tab-separated for `.tsv` and `.tsv.gz`, otherwise `standard`.
  public init(path: String) {
    self.init(delimiter: Self.defaultDelimiter(forPath: path))
  }

  /// A tab for a name ending `.tsv` or `.tsv.gz` (any case), a comma otherwise.
  public static func defaultDelimiter(forPath path: String) -> UInt8 {
    let name = path.lowercased()
    return name.hasSuffix(".tsv") || name.hasSuffix(".tsv.gz") ? UInt8(ascii: "\t") : UInt8(ascii: ",")
  }

  /// Any ASCII byte but a quote or a line break, which the scanner could not tell from the record's structure.
  public static func allowsDelimiter(_ byte: UInt8) -> Bool {
    byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r")
  }

  /// Whether this is the default dialect for `path` (what results.json then leaves unsaid).
  public func isDefault(forPath path: String) -> Bool {
    delimiter == Self.defaultDelimiter(forPath: path) && decimalSeparator == UInt8(ascii: ".") && hasHeader
  }

  /// The delimiter as a user writes it in a spec: `","`, `";"`, `"\t"`.
  public static func spelling(_ byte: UInt8) -> String {
    byte == UInt8(ascii: "\t") ? "\\t" : String(Unicode.Scalar(byte))
  }
}
