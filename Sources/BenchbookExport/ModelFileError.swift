/// A file that is not a model Benchbook can read: malformed protobuf or
/// FlatBuffer, or a well-formed message whose content the format does not allow.
public struct ModelFileError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  /// Byte offset in the file where reading failed, when known.
  public var offset: Int?

  public init(_ message: String, offset: Int? = nil) {
    self.message = message
    self.offset = offset
  }

  public var description: String {
    offset.map { "\(message) (at byte \($0))" } ?? message
  }
}
