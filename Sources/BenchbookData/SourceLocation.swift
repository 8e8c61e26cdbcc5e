/// Where something came from in a user's file, so an error can point at it.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
  public var file: String
  /// 1-based line number, when known.
  public var line: Int?
  /// 1-based column number, when known.
  public var column: Int?

  public init(file: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, the form editors and terminals make clickable.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    return text
  }
}
