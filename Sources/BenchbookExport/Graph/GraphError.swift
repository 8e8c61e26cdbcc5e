/// A graph that cannot be built or read: the operation, its inputs, and what is wrong.
public struct GraphError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
