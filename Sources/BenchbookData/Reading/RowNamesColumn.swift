/// A first column that only numbers or names the rows, as R's `write.csv` writes it (its header field
/// empty: `"",...`) and pandas' `to_csv` (an index read back as `Unnamed: 0`). It is never a column an
/// experiment can use, so the reader skips it, and results say so.
public struct RowNamesColumn: Sendable, Hashable, Codable {
  /// The header field as written: `""` or `Unnamed: 0`.
  public var header: String
  /// Who writes files so: `R` or `pandas`.
  public var writer: String

  public init(header: String, writer: String) {
    self.header = header
    self.writer = writer
  }

  /// The row-name column a first header field announces, if it is one.
  static func announced(byFirstField name: String) -> RowNamesColumn? {
    switch name {
    case "": RowNamesColumn(header: "", writer: "R")
    case "Unnamed: 0": RowNamesColumn(header: name, writer: "pandas")
    default: nil
    }
  }
}
