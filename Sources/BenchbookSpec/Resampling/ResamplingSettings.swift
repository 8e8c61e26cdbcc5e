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

  /// An error at `key`'s line (it must have been given).
  public func error(_ key: String, _ message: String) -> SpecError {
    fields[key].map { $0.error(message) } ?? SpecError(message, at: methodLocation ?? SourceLocation(file: "spec"))
  }
}
