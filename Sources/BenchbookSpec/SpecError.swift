import BenchbookData

/// A problem with an experiment spec, pointing at its file, line and key.
public struct SpecError: Error, Sendable, Equatable, CustomStringConvertible {
  public var location: SourceLocation
  /// The offending key, dotted from the top (`resampling.folds`), when there is one.
  public var key: String?
  public var message: String

  public init(_ message: String, at location: SourceLocation, key: String? = nil) {
    self.message = message
    self.location = location
    self.key = key
  }

  public var description: String {
    if let key { return "\(location): \(key): \(message)" }
    return "\(location): \(message)"
  }
}
