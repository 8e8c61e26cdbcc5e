import BenchbookData

/// The spec's `resampling:` keys, as a method reads them: typed, with errors at the key's line.
public struct ResamplingSettings {
  let fields: [String: SpecNode]
  /// Where `method` was written, when it was.
  public let methodLocation: SourceLocation?

  init(fields: [String: SpecNode], methodLocation: SourceLocation?) {
    self.fields = fields
    self.methodLocation = methodLocation
  }

  /// No keys: every setting at its default.
  public static var none: ResamplingSettings { ResamplingSettings(fields: [:], methodLocation: nil) }

  /// Where `key` was written, when it was.
  public func location(of key: String) -> SourceLocation? { fields.optional(key)?.location }

  public func int(_ key: String, atLeast minimum: Int) throws(SpecError) -> Int? {
    try fields.optional(key)?.int(atLeast: minimum)
  }

  public func bool(_ key: String) throws(SpecError) -> Bool? { try fields.optional(key)?.bool() }

  public func double(_ key: String) throws(SpecError) -> Double? { try fields.optional(key)?.double() }

  /// The seed of the method's shuffles (every method takes one; default 0).
  public func seed() throws(SpecError) -> UInt64 {
    guard let node = fields.optional("seed") else { return 0 }
    guard let value = UInt64(try node.string()) else { throw node.error("seed must be a whole number ≥ 0") }
    return value
  }

  /// The column whose values group the rows (`groups: user_id`), which a group method needs.
  /// - Parameter method: the method's name, for the error when `groups` is missing.
  public func groups(for method: String) throws(SpecError) -> ColumnReference {
    guard let node = fields.optional("groups") else {
      throw SpecError(
        "\(method) resampling keeps each group of rows to one side of every split; name the column that holds "
          + "the groups with 'groups: <column>'", at: methodLocation ?? SourceLocation(file: "spec"),
        key: "resampling.groups")
    }
    let name = try node.string()
    guard !name.isEmpty else { throw node.error("groups names the column that holds each row's group") }
    return ColumnReference(column: name, location: node.location)
  }

  /// An error at `key`'s line (it must have been given).
  public func error(_ key: String, _ message: String) -> SpecError {
    fields[key].map { $0.error(message) } ?? SpecError(message, at: methodLocation ?? SourceLocation(file: "spec"))
  }
}
