/// A string key and value in fields 1 and 2: the wire form of a protobuf `map<string, string>` entry (Core ML's
/// user-defined metadata) and of ONNX's `StringStringEntryProto`, which are the same message.
struct StringPair: ProtobufMessage, Equatable {
  var key = ""
  var value = ""

  func encode(to writer: inout ProtobufWriter) {
    writer.string(1, key)
    writer.string(2, value)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: key = try reader.string(wire)
    case 2: value = try reader.string(wire)
    default: return false
    }
    return true
  }
}
