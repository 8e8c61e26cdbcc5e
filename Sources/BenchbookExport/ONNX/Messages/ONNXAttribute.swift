/// `AttributeProto`: name = 1, f = 2, i = 3, s = 4, t = 5, floats = 7,
/// ints = 8, strings = 9, type = 20 (FLOAT 1, INT 2, STRING 3, TENSOR 4,
/// FLOATS 6, INTS 7, STRINGS 8).
struct ONNXAttribute: ProtobufMessage, Equatable {
  enum Kind: Int64 {
    case float = 1, int = 2, string = 3, tensor = 4, floats = 6, ints = 7, strings = 8
  }

  var name = ""
  var kind: Kind = .int
  var float: Float = 0
  var int: Int64 = 0
  var string = ""
  var tensor: ONNXTensor?
  var floats: [Float] = []
  var ints: [Int64] = []
  var strings: [String] = []

  init() {}

  static func int(_ name: String, _ value: Int) -> ONNXAttribute {
    var a = ONNXAttribute()
    a.name = name
    a.kind = .int
    a.int = Int64(value)
    return a
  }

  static func ints(_ name: String, _ values: [Int]) -> ONNXAttribute {
    var a = ONNXAttribute()
    a.name = name
    a.kind = .ints
    a.ints = values.map(Int64.init)
    return a
  }

  static func strings(_ name: String, _ values: [String]) -> ONNXAttribute {
    var a = ONNXAttribute()
    a.name = name
    a.kind = .strings
    a.strings = values
    return a
  }

  static func tensor(_ name: String, _ value: ONNXTensor) -> ONNXAttribute {
    var a = ONNXAttribute()
    a.name = name
    a.kind = .tensor
    a.tensor = value
    return a
  }

  func encode(to writer: inout ProtobufWriter) {
    writer.string(1, name)
    writer.float(2, float)
    writer.int(3, int)
    writer.string(4, string)
    writer.message(5, tensor)
    writer.packedFloats(7, floats)
    writer.packedInts(8, ints)
    writer.strings(9, strings)
    writer.int(20, kind.rawValue)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: name = try reader.string(wire)
    case 2: float = try reader.float(wire)
    case 3: int = try reader.int64(wire)
    case 4: string = try reader.string(wire)
    case 5: tensor = try reader.message(wire)
    case 7: try reader.appendFloats(wire, to: &floats)
    case 8: try reader.appendInts(wire, to: &ints)
    case 9: strings.append(try reader.string(wire))
    case 20:
      let raw = try reader.int64(wire)
      guard let kind = Kind(rawValue: raw) else { throw ModelFileError("attribute '\(name)' has type \(raw)") }
      self.kind = kind
    default: return false
    }
    return true
  }
}
