/// Core ML's `Imputer`: a value equal to the replace value (NaN matches NaN) becomes the imputed value; in an
/// array, each such element becomes the array's imputed value at its position.
///
/// Benchbook writes three forms: a double array with replace value NaN after the feature vectorizer (an app
/// passes a missing number as `Double.nan`), and a string with replace value `""` or an int64 with replace value
/// `Int64.min` before a categorical input's one-hot encoder (`MissingSentinel`).
public struct Imputer: Sendable, Equatable, ProtobufMessage {
  /// `oneof ImputedValue`, the members Benchbook writes.
  public enum Imputed: Sendable, Equatable {
    case double(Double)
    case int64(Int64)
    case string(String)
    case doubleArray([Double])
    case none
  }

  /// `oneof ReplaceValue`, the members Benchbook writes.
  public enum Replaced: Sendable, Equatable {
    case double(Double)
    case int64(Int64)
    case string(String)
    case none
  }

  public var imputed: Imputed
  public var replaced: Replaced

  public init(imputed: Imputed, replaced: Replaced) {
    self.imputed = imputed
    self.replaced = replaced
  }

  init() { self.init(imputed: .none, replaced: .none) }

  public static func == (a: Imputer, b: Imputer) -> Bool {
    // NaN replace values are the same sentinel.
    func same(_ x: Replaced, _ y: Replaced) -> Bool {
      if case .double(let p) = x, case .double(let q) = y { return p.bitPattern == q.bitPattern || p == q }
      return x == y
    }
    return a.imputed == b.imputed && same(a.replaced, b.replaced)
  }

  func encode(to writer: inout ProtobufWriter) {
    // Members of a oneof are written even when they hold their type's default.
    switch imputed {
    case .double(let value): writer.presentDouble(1, value)
    case .int64(let value): writer.presentInt(2, value)
    case .string(let value): writer.strings(3, [value])
    case .doubleArray(let values): writer.message(4, DoubleVector(vector: values))
    case .none: break
    }
    switch replaced {
    case .double(let value): writer.presentDouble(11, value)
    case .int64(let value): writer.presentInt(12, value)
    case .string(let value): writer.strings(13, [value])
    case .none: break
    }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: imputed = .double(try reader.double(wire))
    case 2: imputed = .int64(try reader.int64(wire))
    case 3: imputed = .string(try reader.string(wire))
    case 4: imputed = .doubleArray(try reader.message(wire, as: DoubleVector.self).vector)
    case 11: replaced = .double(try reader.double(wire))
    case 12: replaced = .int64(try reader.int64(wire))
    case 13: replaced = .string(try reader.string(wire))
    default: return false
    }
    return true
  }
}
