/// `GraphProto`: nodes = 1, name = 2, initializers = 5, doc string = 10,
/// inputs = 11, outputs = 12.
struct ONNXGraph: ProtobufMessage, Equatable {
  var nodes: [ONNXNode] = []
  var name = ""
  var initializers: [ONNXTensor] = []
  var docString = ""
  var inputs: [ONNXValueInfo] = []
  var outputs: [ONNXValueInfo] = []

  func encode(to writer: inout ProtobufWriter) {
    writer.messages(1, nodes)
    writer.string(2, name)
    writer.messages(5, initializers)
    writer.string(10, docString)
    writer.messages(11, inputs)
    writer.messages(12, outputs)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: nodes.append(try reader.message(wire))
    case 2: name = try reader.string(wire)
    case 5: initializers.append(try reader.message(wire))
    case 10: docString = try reader.string(wire)
    case 11: inputs.append(try reader.message(wire))
    case 12: outputs.append(try reader.message(wire))
    default: return false
    }
    return true
  }
}

/// `NodeProto`: inputs = 1, outputs = 2, name = 3, op type = 4, attributes = 5, domain = 7.
struct ONNXNode: ProtobufMessage, Equatable {
  var inputs: [String] = []
  var outputs: [String] = []
  var name = ""
  var opType = ""
  var attributes: [ONNXAttribute] = []
  var domain = ""

  func encode(to writer: inout ProtobufWriter) {
    writer.strings(1, inputs)
    writer.strings(2, outputs)
    writer.string(3, name)
    writer.string(4, opType)
    writer.messages(5, attributes)
    writer.string(7, domain)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: inputs.append(try reader.string(wire))
    case 2: outputs.append(try reader.string(wire))
    case 3: name = try reader.string(wire)
    case 4: opType = try reader.string(wire)
    case 5: attributes.append(try reader.message(wire))
    case 7: domain = try reader.string(wire)
    default: return false
    }
    return true
  }

  /// The attribute called `name`, if the node has it.
  func attribute(_ name: String) -> ONNXAttribute? { attributes.first { $0.name == name } }
}
