/// `ValueInfoProto` (name = 1, type = 2) of a tensor: `TypeProto.tensor_type`
/// (= 1) holding the element type (= 1) and the shape (= 2), whose dimensions
/// are `dim_value` (= 1) or, for the batch, `dim_param` (= 2) `batch`.
struct ONNXValueInfo: ProtobufMessage, Equatable {
  var name = ""
  var elementType: Int64 = 0
  /// −1 for a named (resizable) dimension.
  var shape: [Int] = []

  func encode(to writer: inout ProtobufWriter) {
    writer.string(1, name)
    writer.message(2, TypeMessage(tensor: TensorType(elementType: elementType, shape: Shape(dimensions: shape))))
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: name = try reader.string(wire)
    case 2:
      let type = try reader.message(wire, as: TypeMessage.self)
      guard let tensor = type.tensor else { throw ModelFileError("'\(name)' is not a tensor") }
      elementType = tensor.elementType
      shape = tensor.shape.dimensions
    default: return false
    }
    return true
  }

  struct TypeMessage: ProtobufMessage {
    var tensor: TensorType?

    func encode(to writer: inout ProtobufWriter) { writer.message(1, tensor) }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 1 else { return false }
      tensor = try reader.message(wire)
      return true
    }
  }

  struct TensorType: ProtobufMessage {
    var elementType: Int64 = 0
    var shape = Shape()

    func encode(to writer: inout ProtobufWriter) {
      writer.int(1, elementType)
      writer.message(2, shape)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: elementType = try reader.int64(wire)
      case 2: shape = try reader.message(wire)
      default: return false
      }
      return true
    }
  }

  struct Shape: ProtobufMessage {
    var dimensions: [Int] = []

    func encode(to writer: inout ProtobufWriter) {
      for dimension in dimensions { writer.message(1, Dimension(value: dimension)) }
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 1 else { return false }
      dimensions.append(try reader.message(wire, as: Dimension.self).value)
      return true
    }
  }

  struct Dimension: ProtobufMessage {
    var value = -1

    func encode(to writer: inout ProtobufWriter) {
      if value >= 0 { writer.uint(1, UInt64(value)) } else { writer.string(2, "batch") }
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: value = Int(try reader.int64(wire))
      case 2:
        _ = try reader.string(wire)
        value = -1
      default: return false
      }
      return true
    }
  }
}
