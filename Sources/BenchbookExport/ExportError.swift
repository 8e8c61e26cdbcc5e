/// Why a fitted model could not be written as a Core ML file.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
