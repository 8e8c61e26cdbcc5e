import Foundation

/// A finding's evidence as plain JSON: numbers, text, lists and objects.
///
/// Checks build it from their own `Codable` evidence types and readers decode
/// it back into them, so the file stays free-form for other tools while the
/// code stays typed. Non-finite numbers never reach it (JSON has none): checks
/// leave such values out.
public enum EvidenceValue: Codable, Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([EvidenceValue])
  case object([String: EvidenceValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([EvidenceValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: EvidenceValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// Any `Encodable` value (a check's evidence struct) as evidence.
  public init<T: Encodable>(encoding value: T) {
    let encoder = JSONCoding.encoder([.sortedKeys])
    guard let data = try? encoder.encode(value), let decoded = try? JSONDecoder().decode(EvidenceValue.self, from: data)
    else {
      preconditionFailure("audit evidence must encode as JSON (no NaN or infinity)")
    }
    self = decoded
  }

  /// The evidence read back as `type`, or `nil` when it has another shape.
  public func decode<T: Decodable>(_ type: T.Type) -> T? {
    guard let data = try? JSONEncoder().encode(self) else { return nil }
    return try? JSONCoding.decoder().decode(type, from: data)
  }
}

extension EvidenceValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: EvidenceValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, EvidenceValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
