/// `TensorProto`: dims = 1, data type = 2, int32 data = 5, string data = 6,
/// int64 data = 7, name = 8, raw data = 9 (little-endian elements), float
/// data = 4. Benchbook writes numbers as raw data, strings as string data.
struct ONNXTensor: ProtobufMessage, Equatable {
  /// `TensorProto.DataType`.
  enum DataType: Int64 {
    case float = 1, uint8 = 2, int32 = 6, int64 = 7, string = 8, bool = 9
  }

  var dims: [Int64] = []
  var dataType: Int64 = 0
  var name = ""
  var raw: [UInt8] = []
  var floatData: [Float] = []
  var int32Data: [Int64] = []
  var int64Data: [Int64] = []
  var stringData: [String] = []

  func encode(to writer: inout ProtobufWriter) {
    writer.packedInts(1, dims)
    writer.int(2, dataType)
    writer.packedFloats(4, floatData)
    writer.packedInts(5, int32Data)
    writer.strings(6, stringData)
    writer.packedInts(7, int64Data)
    writer.string(8, name)
    writer.bytes(9, raw)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: try reader.appendInts(wire, to: &dims)
    case 2: dataType = try reader.int64(wire)
    case 4: try reader.appendFloats(wire, to: &floatData)
    case 5: try reader.appendInts(wire, to: &int32Data)
    case 6: stringData.append(try reader.string(wire))
    case 7: try reader.appendInts(wire, to: &int64Data)
    case 8: name = try reader.string(wire)
    case 9: raw = try reader.bytes(wire)
    default: return false
    }
    return true
  }

  static func dataType(_ type: ElementType) -> Int64 {
    switch type {
    case .float32: DataType.float.rawValue
    case .int32: DataType.int32.rawValue
    case .int64: DataType.int64.rawValue
    case .bool: DataType.bool.rawValue
    case .string: DataType.string.rawValue
    }
  }

  static func elementType(_ code: Int64) -> ElementType? {
    switch DataType(rawValue: code) {
    case .float?: .float32
    case .int32?: .int32
    case .int64?: .int64
    case .bool?: .bool
    case .string?: .string
    default: nil
    }
  }

  /// A constant as ONNX stores it.
  init(name: String, values: TensorValues, shape: [Int]) {
    self.name = name
    dims = shape.map(Int64.init)
    dataType = Self.dataType(values.type)
    if case .string(let strings) = values {
      stringData = strings
    } else {
      raw = TFLiteWriter.data(values)
    }
  }

  init() {}

  /// The elements, from raw or typed data.
  func values() throws(ModelFileError) -> TensorValues {
    guard let type = Self.elementType(dataType) else {
      throw ModelFileError("tensor '\(name)' has data type \(dataType), not one Benchbook reads")
    }
    guard let count = ShapeInference.elementCount(dims.map { Int(truncatingIfNeeded: $0) }) else {
      throw ModelFileError("tensor '\(name)' has dimensions \(dims)")
    }
    if type == .string { return .string(stringData) }
    if raw.isEmpty {
      switch type {
      case .float32: return .float32(floatData)
      case .int32: return .int32(int32Data.map { Int32(truncatingIfNeeded: $0) })
      case .int64: return .int64(int64Data)
      case .bool: return .bool(int32Data.map { $0 != 0 })
      case .string: return .string(stringData)
      }
    }
    return try TFLiteFile.values(raw[...], type: type, shape: [count])
  }
}
