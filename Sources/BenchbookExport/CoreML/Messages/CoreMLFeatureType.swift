/// Core ML's `FeatureType`: what kind of value a feature holds.
///
/// Scalar types and dictionary key types are empty messages in the format;
/// choosing one writes a zero-length field.
public struct CoreMLFeatureType: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    case int64
    case double
    case string
    /// A fixed-shape array; Benchbook writes one-dimensional ones.
    case multiArray(shape: [Int64], dataType: ArrayDataType)
    /// Keys to doubles, such as class probabilities.
    case dictionary(keys: DictionaryKeyType)
    /// Images, sequences and other types this mirror does not hold, by field number.
    case unsupported(field: Int)
  }

  public enum DictionaryKeyType: Int, Sendable, Equatable {
    case int64 = 1
    case string = 2
  }

  /// `ArrayFeatureType.ArrayDataType`: element type and width.
  public struct ArrayDataType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let float32 = ArrayDataType(rawValue: 65568)
    public static let double = ArrayDataType(rawValue: 65600)
    public static let int32 = ArrayDataType(rawValue: 131104)

    public var description: String {
      switch self {
      case .float32: "float32"
      case .double: "double"
      case .int32: "int32"
      default: "data type \(rawValue)"
      }
    }
  }

  public var kind: Kind
  public var isOptional: Bool

  public init(_ kind: Kind, isOptional: Bool = false) {
    self.kind = kind
    self.isOptional = isOptional
  }

  /// As `inspect` prints it: `double`, `string`, `multiArray(double, [4])`, `dictionary(int64 → double)`.
  public var description: String {
    let base =
      switch kind {
      case .int64: "int64"
      case .double: "double"
      case .string: "string"
      case .multiArray(let shape, let dataType):
        "multiArray(\(dataType), [\(shape.map(String.init).joined(separator: ", "))])"
      case .dictionary(let keys): "dictionary(\(keys == .int64 ? "int64" : "string") → double)"
      case .unsupported(let field): "unsupported type (field \(field))"
      }
    return isOptional ? base + "?" : base
  }
}

extension CoreMLFeatureType: ProtobufMessage {
  public init() { self.init(.double) }

  func encode(to writer: inout ProtobufWriter) {
    switch kind {
    case .int64: writer.emptyMessage(1)
    case .double: writer.emptyMessage(2)
    case .string: writer.emptyMessage(3)
    case .multiArray(let shape, let dataType):
      writer.message(5, ArrayFeatureTypeMessage(shape: shape, dataType: dataType.rawValue))
    case .dictionary(let keys): writer.message(6, DictionaryFeatureTypeMessage(keys: keys))
    case .unsupported: break
    }
    writer.bool(1000, isOptional)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1, 2, 3:
      _ = try reader.window(wire)
      kind = field == 1 ? .int64 : field == 2 ? .double : .string
    case 5:
      let array = try reader.message(wire, as: ArrayFeatureTypeMessage.self)
      kind = .multiArray(shape: array.shape, dataType: ArrayDataType(rawValue: array.dataType))
    case 6:
      let dictionary = try reader.message(wire, as: DictionaryFeatureTypeMessage.self)
      guard let keys = dictionary.keys else { throw ModelFileError("a dictionary feature type has no key type") }
      kind = .dictionary(keys: keys)
    case 1000: isOptional = try reader.bool(wire)
    case 4...999 where wire == .lengthDelimited:
      kind = .unsupported(field: field)
      return false
    default: return false
    }
    return true
  }
}

/// `ArrayFeatureType`: shape = 1 (repeated int64), dataType = 2.
struct ArrayFeatureTypeMessage: ProtobufMessage {
  var shape: [Int64] = []
  var dataType = 0

  func encode(to writer: inout ProtobufWriter) {
    writer.packedInts(1, shape)
    writer.int(2, dataType)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: try reader.appendInts(wire, to: &shape)
    case 2: dataType = try reader.int32(wire)
    default: return false
    }
    return true
  }
}

/// `DictionaryFeatureType`: `oneof KeyType` of empty messages.
struct DictionaryFeatureTypeMessage: ProtobufMessage {
  var keys: CoreMLFeatureType.DictionaryKeyType?

  func encode(to writer: inout ProtobufWriter) {
    if let keys { writer.emptyMessage(keys.rawValue) }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    guard let key = CoreMLFeatureType.DictionaryKeyType(rawValue: field) else { return false }
    _ = try reader.window(wire)
    keys = key
    return true
  }
}
