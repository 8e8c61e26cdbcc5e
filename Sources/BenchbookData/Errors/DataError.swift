/// A problem reading a data file or turning it into a `Dataset`, pointing at
/// the place a user can fix: a line of the data file, or the spec entry that
/// named a column.
///
/// `description` reads like a compiler diagnostic, e.g.
/// `experiments/data/flights.csv.gz:1234: column 'distance': 'abc' is not a number`.
public struct DataError: Error, CustomStringConvertible, Sendable, Hashable {
  /// What went wrong, for callers (and tests) that branch on it.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The file cannot be opened or read.
    case unreadableFile
    /// The file starts like gzip but does not decompress.
    case corruptGzip
    /// The CSV breaks the format: no header, a bad header name, an unterminated quote.
    case malformedCSV
    /// A record has more or fewer fields than the header.
    case raggedRecord
    /// The spec names a column the header does not have.
    case unknownColumn
    /// A value that must be a number is not.
    case notANumber
    /// A value that must be a timestamp (or a number of seconds) is not.
    case notATimestamp
    /// A used column is missing a value and the policy is `missing: error`.
    case missingValue
    /// An imputation that cannot fill the feature it applies to (a mean of categories, a word for a number).
    case invalidImputation
    /// A derived-feature expression does not parse.
    case invalidExpression
    /// A derived-feature expression cannot be computed for a row (division by zero, log of a non-positive number).
    case evaluation
    /// The target cannot give classes (fewer than two, or nothing left).
    case invalidTarget
  }

  public var kind: Kind
  /// Where: a data-file line, or the spec entry responsible.
  public var location: SourceLocation
  /// The data column (or derived feature) involved, when there is one.
  public var column: String?
  /// What is wrong, without the location.
  public var message: String

  public init(_ kind: Kind, at location: SourceLocation, column: String? = nil, _ message: String) {
    self.kind = kind
    self.location = location
    self.column = column
    self.message = message
  }

  /// `location: column 'name': message` for errors about one value in the
  /// data; `location: message` otherwise (their message names what it needs).
  public var description: String {
    if let column, kind.isAboutAValue {
      return "\(location): column '\(column)': \(message)"
    }
    return "\(location): \(message)"
  }
}

extension DataError.Kind {
  /// Errors located at one cell of the data, whose column is worth a prefix.
  fileprivate var isAboutAValue: Bool {
    switch self {
    case .notANumber, .notATimestamp, .missingValue, .evaluation: true
    default: false
    }
  }
}
