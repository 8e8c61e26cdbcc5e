/// A setting's value as results files record it.
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

  public var description: String {
    switch self {
    case .int(let value): String(value)
    case .double(let value): String(value)
    case .string(let value): value
    case .bool(let value): String(value)
    case .none: "none"
    }
  }
}
