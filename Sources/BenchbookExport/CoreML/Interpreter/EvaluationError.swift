/// Why a decoded model could not be evaluated: a structure Core ML would
/// reject, a model kind Benchbook does not evaluate, or a bad input value.
public struct EvaluationError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
