/// A value an app passes to, or gets from, a Core ML model.
public enum FeatureValue: Sendable, Equatable, CustomStringConvertible {
  case double(Double)
  case int64(Int64)
  case string(String)
  /// A one-dimensional multi-array.
  case array([Double])
  /// Class label → probability, keyed by the label's text.
  case dictionary([String: Double])

  public var description: String {
    switch self {
    case .double(let value): "\(value)"
    case .int64(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .array(let values): "[\(values.map { "\($0)" }.joined(separator: ", "))]"
    case .dictionary(let values): "\(values.sorted { $0.key < $1.key })"
    }
  }
}
