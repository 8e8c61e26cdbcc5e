/// Reads protocol-buffer wire format: the inverse of `ProtobufWriter`.
///
/// A reader is a window onto one shared byte array; nested messages get a
/// narrower window, so decoding copies nothing but the values themselves.
/// Unknown fields are skipped, as protobuf requires, and repeated numbers are
/// accepted packed or one by one.
///
/// Messages decode by recursion, one level per nested message, so nesting is
/// limited to `maximumDepth` (protobuf's own default): a crafted file with
/// thousands of nested pipelines is an error at its byte offset, not a crash.
struct ProtobufReader {
  static let maximumDepth = 100

  private let bytes: [UInt8]
  private var position: Int
  private let end: Int
  /// Messages this window lies inside (0 for the whole file).
  private let depth: Int

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    self.position = 0
    self.end = bytes.count
    self.depth = 0
  }

  private init(bytes: [UInt8], start: Int, end: Int, depth: Int) {
    self.bytes = bytes
    self.position = start
    self.end = end
    self.depth = depth
  }

  var isAtEnd: Bool { position >= end }

  private func failure(_ message: String) -> ModelFileError {
    ModelFileError(message, offset: position)
  }

  // MARK: - Primitives

  mutating func varint() throws(ModelFileError) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end else { throw failure("truncated varint") }
      let byte = bytes[position]
      position += 1
      guard shift < 64 else { throw failure("varint longer than ten bytes") }
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
  }

  private mutating func fixed64() throws(ModelFileError) -> UInt64 {
    guard end - position >= 8 else { throw failure("truncated 64-bit value") }
    var bits: UInt64 = 0
    for i in 0..<8 { bits |= UInt64(bytes[position + i]) << UInt64(8 * i) }
    position += 8
    return bits
  }

  private mutating func fixed32() throws(ModelFileError) -> UInt32 {
    guard end - position >= 4 else { throw failure("truncated 32-bit value") }
    var bits: UInt32 = 0
    for i in 0..<4 { bits |= UInt32(bytes[position + i]) << UInt32(8 * i) }
    position += 4
    return bits
  }

  /// The next field's number and wire type, or nil at the end of the message.
  mutating func nextField() throws(ModelFileError) -> (field: Int, wire: WireType)? {
    guard !isAtEnd else { return nil }
    let key = try varint()
    guard let wire = WireType(rawValue: UInt8(key & 7)) else {
      throw failure("unsupported wire type \(key & 7)")
    }
    let field = key >> 3
    guard field >= 1 && field <= 536_870_911 else { throw failure("invalid field number \(field)") }
    return (Int(field), wire)
  }

  private func expect(_ wire: WireType, _ wanted: WireType, _ what: String) throws(ModelFileError) {
    guard wire == wanted else { throw failure("\(what) has wire type \(wire.rawValue), expected \(wanted.rawValue)") }
  }

  // MARK: - Singular values

  mutating func int64(_ wire: WireType) throws(ModelFileError) -> Int64 {
    try expect(wire, .varint, "an integer field")
    return Int64(bitPattern: try varint())
  }

  /// int32 fields: protobuf truncates to the low 32 bits.
  mutating func int32(_ wire: WireType) throws(ModelFileError) -> Int {
    Int(Int32(truncatingIfNeeded: try int64(wire)))
  }

  /// An enum field (an int32 on the wire) as one of `E`'s cases; a number that names none is an error that says
  /// which field (`what`) held it.
  mutating func enumeration<E: RawRepresentable>(_ wire: WireType, _ what: String) throws(ModelFileError) -> E
  where E.RawValue: BinaryInteger {
    let raw = try int32(wire)
    guard let rawValue = E.RawValue(exactly: raw), let value = E(rawValue: rawValue) else {
      throw ModelFileError("unknown \(what) \(raw)")
    }
    return value
  }

  mutating func uint64(_ wire: WireType) throws(ModelFileError) -> UInt64 {
    try expect(wire, .varint, "an integer field")
    return try varint()
  }

  mutating func bool(_ wire: WireType) throws(ModelFileError) -> Bool {
    try int64(wire) != 0
  }

  mutating func double(_ wire: WireType) throws(ModelFileError) -> Double {
    try expect(wire, .fixed64, "a double field")
    return Double(bitPattern: try fixed64())
  }

  /// The next length-delimited field as a window of its own.
  mutating func window(_ wire: WireType) throws(ModelFileError) -> ProtobufReader {
    try expect(wire, .lengthDelimited, "a length-delimited field")
    let length = try varint()
    guard length <= UInt64(end - position) else { throw failure("length \(length) runs past the end") }
    let start = position
    position += Int(length)
    return ProtobufReader(bytes: bytes, start: start, end: position, depth: depth + 1)
  }

  mutating func float(_ wire: WireType) throws(ModelFileError) -> Float {
    try expect(wire, .fixed32, "a float field")
    return Float(bitPattern: try fixed32())
  }

  /// A bytes field's contents.
  mutating func bytes(_ wire: WireType) throws(ModelFileError) -> [UInt8] {
    let window = try window(wire)
    return Array(bytes[window.position..<window.end])
  }

  mutating func string(_ wire: WireType) throws(ModelFileError) -> String {
    let window = try window(wire)
    guard let text = String(validating: bytes[window.position..<window.end], as: UTF8.self) else {
      throw failure("a string field is not valid UTF-8")
    }
    return text
  }

  mutating func message<Message: ProtobufMessage>(_ wire: WireType, as type: Message.Type = Message.self)
    throws(ModelFileError) -> Message
  {
    let start = position
    var window = try window(wire)
    guard window.depth <= Self.maximumDepth else {
      throw ModelFileError("messages nest more than \(Self.maximumDepth) levels deep", offset: start)
    }
    return try Message(from: &window)
  }

  // MARK: - Repeated numbers, packed or not

  mutating func appendDoubles(_ wire: WireType, to values: inout [Double]) throws(ModelFileError) {
    if wire == .fixed64 { return values.append(Double(bitPattern: try fixed64())) }
    var window = try window(wire)
    guard (window.end - window.position) % 8 == 0 else { throw failure("packed doubles not a multiple of 8 bytes") }
    values.reserveCapacity(values.count + (window.end - window.position) / 8)
    while !window.isAtEnd { values.append(Double(bitPattern: try window.fixed64())) }
  }

  mutating func appendFloats(_ wire: WireType, to values: inout [Float]) throws(ModelFileError) {
    if wire == .fixed32 { return values.append(Float(bitPattern: try fixed32())) }
    var window = try window(wire)
    guard (window.end - window.position) % 4 == 0 else { throw failure("packed floats not a multiple of 4 bytes") }
    values.reserveCapacity(values.count + (window.end - window.position) / 4)
    while !window.isAtEnd { values.append(Float(bitPattern: try window.fixed32())) }
  }

  mutating func appendInts(_ wire: WireType, to values: inout [Int64]) throws(ModelFileError) {
    if wire == .varint { return values.append(Int64(bitPattern: try varint())) }
    var window = try window(wire)
    while !window.isAtEnd { values.append(Int64(bitPattern: try window.varint())) }
  }

  // MARK: - Skipping

  /// Steps over a field this reader's message does not know.
  mutating func skip(_ wire: WireType) throws(ModelFileError) {
    switch wire {
    case .varint: _ = try varint()
    case .fixed64: _ = try fixed64()
    case .fixed32: _ = try fixed32()
    case .lengthDelimited: _ = try window(wire)
    }
  }
}

/// A message Benchbook reads and writes: its own minimal mirror of one of
/// Core ML's `.proto` messages, holding only the fields Benchbook uses.
protocol ProtobufMessage: Sendable {
  init()
  func encode(to writer: inout ProtobufWriter)
  /// Reads one field into `self`; returns false for a field this mirror does not hold.
  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
}

extension ProtobufMessage {
  init(from reader: inout ProtobufReader) throws(ModelFileError) {
    self.init()
    while let (field, wire) = try reader.nextField() {
      if try !decodeField(field, wire, from: &reader) { try reader.skip(wire) }
    }
  }
}
