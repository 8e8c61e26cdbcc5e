// Core ML's `DataStructures.proto` vectors: each holds one repeated field, vector = 1.

/// `StringVector`: vector = 1.
struct StringVector: ProtobufMessage {
  var vector: [String] = []

  func encode(to writer: inout ProtobufWriter) { writer.strings(1, vector) }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    guard field == 1 else { return false }
    vector.append(try reader.string(wire))
    return true
  }
}

/// `Int64Vector`: vector = 1, packed.
struct Int64Vector: ProtobufMessage {
  var vector: [Int64] = []

  func encode(to writer: inout ProtobufWriter) { writer.packedInts(1, vector) }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    guard field == 1 else { return false }
    try reader.appendInts(wire, to: &vector)
    return true
  }
}

/// `DoubleVector` and `GLMClassifier.DoubleArray`: value/vector = 1, packed.
struct DoubleVector: ProtobufMessage {
  var vector: [Double] = []

  func encode(to writer: inout ProtobufWriter) { writer.packedDoubles(1, vector) }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    guard field == 1 else { return false }
    try reader.appendDoubles(wire, to: &vector)
    return true
  }
}

/// `FloatVector`: vector = 1, packed float32.
struct FloatVector: ProtobufMessage {
  var vector: [Float] = []

  func encode(to writer: inout ProtobufWriter) { writer.packedFloats(1, vector) }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    guard field == 1 else { return false }
    try reader.appendFloats(wire, to: &vector)
    return true
  }
}
