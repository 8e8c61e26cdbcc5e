/// Why a fitted model could not be written in a format: a message for the
/// user, naming what is wrong and what would work.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }

  /// A file that would be larger than its format (or the caller) allows.
  static func overLimit(format: String, bytes: Int, limit: Int) -> ExportError {
    ExportError(
      "the \(format) file would take \(ExportMetadata.grouped(bytes)) bytes or more, over the limit of "
        + "\(ExportMetadata.grouped(limit)) bytes")
  }
}
