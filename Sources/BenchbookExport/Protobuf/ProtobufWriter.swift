/// Protocol-buffer wire format, written by hand: Core ML files need only
/// varints, fixed-width doubles and floats, and length-delimited fields, so a
/// small encoder keeps the build free of a code generator.
///
/// Follows proto3: zero scalars, empty strings and empty repeated fields are
/// omitted, repeated numbers are packed, and a message field is written
/// whenever it is set, even when empty (an empty oneof member still says which
/// member was chosen).
///
/// A nested message's length precedes its body, so the writer first runs the message through a counting
/// writer, which stores nothing, then writes the body straight into its own bytes: no buffer per message,
/// and no copy of a large body at every level it is nested in.
struct ProtobufWriter {
  private(set) var bytes: [UInt8] = []
  /// Whether this writer only counts the bytes it would write (`length`).
  private let counting: Bool
  private var counted = 0

  init() { counting = false }

  private init(counting: Bool) { self.counting = counting }

  /// Bytes written, or counted, so far.
  var length: Int { counting ? counted : bytes.count }

  /// The encoded length of `value`, without writing it.
  static func length(of value: some ProtobufMessage) -> Int {
    var counter = ProtobufWriter(counting: true)
    value.encode(to: &counter)
    return counter.counted
  }

  // MARK: - Primitives

  static func varintLength(_ value: UInt64) -> Int {
    var length = 1
    var rest = value >> 7
    while rest != 0 {
      length += 1
      rest >>= 7
    }
    return length
  }

  mutating func writeVarint(_ value: UInt64) {
    if counting {
      counted += Self.varintLength(value)
      return
    }
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
    if counting {
      counted += 8
      return
    }
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
  }

  private mutating func writeFixed32(_ bits: UInt32) {
    if counting {
      counted += 4
      return
    }
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
  }

  private mutating func writeBytes(_ utf8: String.UTF8View) {
    if counting { counted += utf8.count } else { bytes.append(contentsOf: utf8) }
  }

  private mutating func reserve(_ extra: Int) {
    if !counting { bytes.reserveCapacity(bytes.count + extra) }
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

  /// A double field written whatever its value (a member of a oneof, whose presence is its meaning).
  mutating func presentDouble(_ field: Int, _ value: Double) {
    writeKey(field, .fixed64)
    writeFixed64(value.bitPattern)
  }

  /// An int64 field written whatever its value (a member of a oneof, whose presence is its meaning).
  mutating func presentInt(_ field: Int, _ value: Int64) {
    writeKey(field, .varint)
    writeVarint(UInt64(bitPattern: value))
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
    writeVarint(UInt64(value.utf8.count))
    writeBytes(value.utf8)
  }

  /// A bytes field (ONNX's raw tensor data); empty is omitted.
  mutating func bytes(_ field: Int, _ value: [UInt8]) {
    guard !value.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(value.count))
    if counting { counted += value.count } else { bytes.append(contentsOf: value) }
  }

  // MARK: - Repeated fields

  mutating func strings(_ field: Int, _ values: [String]) {
    for value in values {
      // Unlike a singular string, an empty element must still be written.
      writeKey(field, .lengthDelimited)
      writeVarint(UInt64(value.utf8.count))
      writeBytes(value.utf8)
    }
  }

  mutating func packedDoubles(_ field: Int, _ values: [Double]) {
    guard !values.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(values.count * 8))
    reserve(values.count * 8)
    for value in values { writeFixed64(value.bitPattern) }
  }

  mutating func packedFloats(_ field: Int, _ values: [Float]) {
    guard !values.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(values.count * 4))
    reserve(values.count * 4)
    for value in values { writeFixed32(value.bitPattern) }
  }

  /// `count` messages in field `field`, each holding `dimension` of `values` (in order) packed in its field 1:
  /// Core ML's repeated `FloatVector`, written without a message value per vector.
  mutating func floatVectors(_ field: Int, _ values: [Float], dimension: Int, count: Int) {
    precondition(values.count == dimension * count, "one vector of \(dimension) values per message")
    let body = dimension == 0 ? 0 : 1 + Self.varintLength(UInt64(4 * dimension)) + 4 * dimension
    if counting {
      counted += count * (Self.varintLength(UInt64(field) << 3) + Self.varintLength(UInt64(body)) + body)
      return
    }
    reserve(count * (body + 2 + Self.varintLength(UInt64(body))))
    for s in 0..<count {
      writeKey(field, .lengthDelimited)
      writeVarint(UInt64(body))
      guard dimension > 0 else { continue }
      writeKey(1, .lengthDelimited)
      writeVarint(UInt64(4 * dimension))
      for value in values[(s * dimension)..<((s + 1) * dimension)] { writeFixed32(value.bitPattern) }
    }
  }

  mutating func packedInts(_ field: Int, _ values: [Int64]) {
    guard !values.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(values.reduce(0) { $0 + Self.varintLength(UInt64(bitPattern: $1)) }))
    for value in values { writeVarint(UInt64(bitPattern: value)) }
  }

  // MARK: - Messages

  /// A nested message, always written (an empty one too).
  mutating func message(_ field: Int, _ value: some ProtobufMessage) {
    writeKey(field, .lengthDelimited)
    if counting {
      // The body counted where it stands, then the length that precedes it.
      let start = counted
      value.encode(to: &self)
      counted += Self.varintLength(UInt64(counted - start))
      return
    }
    let body = Self.length(of: value)
    writeVarint(UInt64(body))
    reserve(body)
    value.encode(to: &self)
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
