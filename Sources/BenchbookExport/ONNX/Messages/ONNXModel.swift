/// ONNX's `ModelProto` (`onnx.proto`), the fields Benchbook writes: IR
/// version = 1, producer name = 2 and version = 3, doc string = 6, graph = 7,
/// opset imports = 8, metadata properties = 14.
struct ONNXModel: ProtobufMessage, Equatable {
  var irVersion: Int64 = 0
  var producerName = ""
  var producerVersion = ""
  var docString = ""
  var graph = ONNXGraph()
  var opsetImports: [ONNXOpset] = []
  var metadata: [StringPair] = []

  func encode(to writer: inout ProtobufWriter) {
    writer.int(1, irVersion)
    writer.string(2, producerName)
    writer.string(3, producerVersion)
    writer.string(6, docString)
    writer.message(7, graph)
    writer.messages(8, opsetImports)
    writer.messages(14, metadata)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: irVersion = try reader.int64(wire)
    case 2: producerName = try reader.string(wire)
    case 3: producerVersion = try reader.string(wire)
    case 6: docString = try reader.string(wire)
    case 7: graph = try reader.message(wire)
    case 8: opsetImports.append(try reader.message(wire))
    case 14: metadata.append(try reader.message(wire))
    default: return false
    }
    return true
  }
}

/// `OperatorSetIdProto`: domain = 1 (empty for the default `ai.onnx`), version = 2.
struct ONNXOpset: ProtobufMessage, Equatable {
  var domain = ""
  var version: Int64 = 0

  func encode(to writer: inout ProtobufWriter) {
    writer.string(1, domain)
    writer.int(2, version)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: domain = try reader.string(wire)
    case 2: version = try reader.int64(wire)
    default: return false
    }
    return true
  }
}
