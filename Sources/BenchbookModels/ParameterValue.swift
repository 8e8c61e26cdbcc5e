/// A setting's value as results files record it.
///
/// JSON writes the double 1.0 as `1`, which reads back as an integer; so numbers
/// compare, hash and print by value, and a setting survives the round trip.
public enum ParameterValue: Sendable, Hashable, Codable, CustomStringConvertible {
  case int(Int)
  case double(Double)
  case string(String)
  case bool(Bool)
  case none

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .none
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .none: try container.encodeNil()
    }
  }

  /// The numeric value of `.int` and `.double`.
  public var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
    if let a = lhs.number, let b = rhs.number { return a == b }
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.none, .none): return true
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    if let number { hasher.combine(number) } else { hasher.combine(description) }
  }

  public var description: String {
    switch self {
    case .int(let value): String(value)
    case .double(let value):
      value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    case .string(let value): value
    case .bool(let value): String(value)
    case .none: "none"
    }
  }
}
