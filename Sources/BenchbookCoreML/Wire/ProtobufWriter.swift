/// Protocol-buffer wire format, written by hand: Core ML files need only
/// varints, fixed-width doubles and floats, and length-delimited fields, so a
/// small encoder keeps the build free of a code generator.
///
/// Follows proto3: zero scalars, empty strings and empty repeated fields are
/// omitted, repeated numbers are packed, and a message field is written
/// whenever it is set, even when empty (an empty oneof member still says which
/// member was chosen).
struct ProtobufWriter {
  private(set) var bytes: [UInt8] = []

  init() {}

  // MARK: - Primitives

  mutating func writeVarint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func writeKey(_ field: Int, _ wireType: WireType) {
    writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
  }

  private mutating func writeFixed64(_ bits: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
  }

  private mutating func writeFixed32(_ bits: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
  }

  // MARK: - Singular fields (omitted when zero)

  /// int32, int64 and enums: negative values take ten bytes (sign-extended), as protobuf specifies.
  mutating func int(_ field: Int, _ value: Int64) {
    guard value != 0 else { return }
    writeKey(field, .varint)
    writeVarint(UInt64(bitPattern: value))
  }

  mutating func int(_ field: Int, _ value: Int) { int(field, Int64(value)) }

  mutating func uint(_ field: Int, _ value: UInt64) {
    guard value != 0 else { return }
    writeKey(field, .varint)
    writeVarint(value)
  }

  mutating func bool(_ field: Int, _ value: Bool) {
    guard value else { return }
    writeKey(field, .varint)
    writeVarint(1)
  }

  /// A double field; +0.0 is proto3's default and is omitted (−0.0 is kept).
  mutating func double(_ field: Int, _ value: Double) {
    guard value.bitPattern != 0 else { return }
    writeKey(field, .fixed64)
    writeFixed64(value.bitPattern)
  }

  /// A float field; +0.0 is omitted.
  mutating func float(_ field: Int, _ value: Float) {
    guard value.bitPattern != 0 else { return }
    writeKey(field, .fixed32)
    writeFixed32(value.bitPattern)
  }

  mutating func string(_ field: Int, _ value: String) {
    guard !value.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    let utf8 = Array(value.utf8)
    writeVarint(UInt64(utf8.count))
    bytes.append(contentsOf: utf8)
  }

  // MARK: - Repeated fields

  mutating func strings(_ field: Int, _ values: [String]) {
    for value in values {
      // Unlike a singular string, an empty element must still be written.
      writeKey(field, .lengthDelimited)
      let utf8 = Array(value.utf8)
      writeVarint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func packedDoubles(_ field: Int, _ values: [Double]) {
    guard !values.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(values.count * 8))
    bytes.reserveCapacity(bytes.count + values.count * 8)
    for value in values { writeFixed64(value.bitPattern) }
  }

  mutating func packedFloats(_ field: Int, _ values: [Float]) {
    guard !values.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(values.count * 4))
    bytes.reserveCapacity(bytes.count + values.count * 4)
    for value in values { writeFixed32(value.bitPattern) }
  }

  mutating func packedInts(_ field: Int, _ values: [Int64]) {
    guard !values.isEmpty else { return }
    var body = ProtobufWriter()
    for value in values { body.writeVarint(UInt64(bitPattern: value)) }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(body.bytes.count))
    bytes.append(contentsOf: body.bytes)
  }

  // MARK: - Messages

  /// A nested message, always written (an empty one too).
  mutating func message(_ field: Int, _ value: some ProtobufMessage) {
    var body = ProtobufWriter()
    value.encode(to: &body)
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(body.bytes.count))
    bytes.append(contentsOf: body.bytes)
  }

  /// A nested message when present.
  mutating func message(_ field: Int, _ value: (some ProtobufMessage)?) {
    if let value { message(field, value) }
  }

  /// A zero-length field: an empty message chosen in a oneof.
  mutating func emptyMessage(_ field: Int) {
    writeKey(field, .lengthDelimited)
    writeVarint(0)
  }

  mutating func messages(_ field: Int, _ values: [some ProtobufMessage]) {
    for value in values { message(field, value) }
  }
}
