/// Protocol-buffer wire format, written by hand: Core ML files need only
/// varints, fixed-width doubles and floats, and length-delimited fields, so a
/// small encoder keeps the build free of a code generator.
///
/// Follows proto3: zero scalars, empty strings and empty repeated fields are
/// omitted, repeated numbers are packed, and a message field is written
/// whenever it is set, even when empty (an empty oneof member still says which
/// member was chosen).
///
/// A nested message's length precedes its body, so `serialize` first runs the message through a counting
/// writer, which stores nothing but the length of every nested message's body in the order the messages start,
/// then writes the bytes into an array of the counted length, taking each length from that list: two passes over
/// a message however deeply it nests.
/// (Counting each message where it is written instead counted a node of a Core ML tree once for every message
/// around it, five times.)
struct ProtobufWriter {
  /// Whether this writer only counts the bytes it would write.
  private let counting: Bool
  /// Bytes written, or counted, so far.
  private var length = 0
  /// Each nested message's body length (and each packed varint field's), in the order they start: filled in by a
  /// counting writer, read in the same order by the writer that writes them.
  private var bodyLengths: [Int] = []
  private var nextBody = 0
  /// Where a writing writer writes: room for exactly the counted length, filled front to back.
  private let output: UnsafeMutablePointer<UInt8>?
  private let capacity: Int

  private init(counting: Bool, bodyLengths: [Int] = [], output: UnsafeMutablePointer<UInt8>? = nil, capacity: Int = 0) {
    self.counting = counting
    self.bodyLengths = bodyLengths
    self.output = output
    self.capacity = capacity
  }

  /// The encoding of `value`: one counting pass, then the bytes.
  static func serialize(_ value: some ProtobufMessage) -> [UInt8] { serialize(value, limit: .max).bytes! }

  /// The encoding of `value` when it takes at most `limit` bytes (`nil` otherwise, nothing written), and the
  /// length it takes. The bytes are written straight into an array of exactly that length.
  static func serialize(_ value: some ProtobufMessage, limit: Int) -> (bytes: [UInt8]?, length: Int) {
    var counter = ProtobufWriter(counting: true)
    value.encode(to: &counter)
    let total = counter.length
    guard total <= limit else { return (nil, total) }
    let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      var writer = ProtobufWriter(
        counting: false, bodyLengths: counter.bodyLengths, output: buffer.baseAddress, capacity: total)
      value.encode(to: &writer)
      precondition(
        writer.length == total && writer.nextBody == counter.bodyLengths.count,
        "a message wrote other bytes than it counted")
      initialized = total
    }
    return (bytes, total)
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

  /// Takes the next `count` bytes: a counting writer only counts them (`nil`), a writing one returns where they
  /// go. Never short unless counting and writing disagree, which stops the program rather than write past the
  /// array.
  @inline(__always)
  private mutating func claim(_ count: Int) -> UnsafeMutablePointer<UInt8>? {
    defer { length += count }
    guard !counting else { return nil }
    precondition(length + count <= capacity, "a message wrote more bytes than it counted")
    return output! + length
  }

  /// The next body length the counting pass recorded: a writing writer meets the bodies in the same order.
  private mutating func nextBodyLength() -> Int {
    defer { nextBody += 1 }
    return bodyLengths[nextBody]
  }

  mutating func writeVarint(_ value: UInt64) {
    let count = Self.varintLength(value)
    guard let out = claim(count) else { return }
    var rest = value
    for i in 0..<(count - 1) {
      out[i] = UInt8(truncatingIfNeeded: rest) | 0x80
      rest >>= 7
    }
    out[count - 1] = UInt8(truncatingIfNeeded: rest)
  }

  mutating func writeKey(_ field: Int, _ wireType: WireType) {
    writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
  }

  private mutating func writeFixed64(_ bits: UInt64) {
    guard let out = claim(8) else { return }
    UnsafeMutableRawPointer(out).storeBytes(of: bits.littleEndian, as: UInt64.self)
  }

  private mutating func writeFixed32(_ bits: UInt32) {
    guard let out = claim(4) else { return }
    UnsafeMutableRawPointer(out).storeBytes(of: bits.littleEndian, as: UInt32.self)
  }

  /// A string's UTF-8 or a bytes field's bytes, copied in one go where they are contiguous.
  private mutating func writeBytes(_ bytes: some Collection<UInt8>) {
    guard !bytes.isEmpty, let out = claim(bytes.count) else { return }
    let copied: Void? = bytes.withContiguousStorageIfAvailable { out.update(from: $0.baseAddress!, count: $0.count) }
    if copied == nil {
      for (i, byte) in bytes.enumerated() { out[i] = byte }
    }
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
    writeBytes(value)
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
    for value in values { writeFixed64(value.bitPattern) }
  }

  mutating func packedFloats(_ field: Int, _ values: [Float]) {
    guard !values.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(values.count * 4))
    for value in values { writeFixed32(value.bitPattern) }
  }

  /// `count` messages in field `field`, each holding `dimension` of `values` (in order) packed in its field 1:
  /// Core ML's repeated `FloatVector`, written without a message value per vector.
  mutating func floatVectors(_ field: Int, _ values: [Float], dimension: Int, count: Int) {
    precondition(values.count == dimension * count, "one vector of \(dimension) values per message")
    let body = dimension == 0 ? 0 : 1 + Self.varintLength(UInt64(4 * dimension)) + 4 * dimension
    if counting {
      length += count * (Self.varintLength(UInt64(field) << 3) + Self.varintLength(UInt64(body)) + body)
      return
    }
    // Read through one buffer: a slice of `values` per vector retained and released the array each time.
    values.withUnsafeBufferPointer { values in
      for s in 0..<count {
        writeKey(field, .lengthDelimited)
        writeVarint(UInt64(body))
        guard dimension > 0 else { continue }
        writeKey(1, .lengthDelimited)
        writeVarint(UInt64(4 * dimension))
        for value in values[(s * dimension)..<((s + 1) * dimension)] { writeFixed32(value.bitPattern) }
      }
    }
  }

  /// Packed varints: their byte length is counted once, with the messages' (`bodyLengths`).
  mutating func packedInts(_ field: Int, _ values: [Int64]) {
    guard !values.isEmpty else { return }
    writeKey(field, .lengthDelimited)
    guard counting else {
      writeVarint(UInt64(nextBodyLength()))
      for value in values { writeVarint(UInt64(bitPattern: value)) }
      return
    }
    let body = values.reduce(0) { $0 + Self.varintLength(UInt64(bitPattern: $1)) }
    bodyLengths.append(body)
    length += Self.varintLength(UInt64(body)) + body
  }

  // MARK: - Messages

  /// A nested message, always written (an empty one too).
  mutating func message(_ field: Int, _ value: some ProtobufMessage) {
    writeKey(field, .lengthDelimited)
    guard counting else {
      writeVarint(UInt64(nextBodyLength()))
      value.encode(to: &self)
      return
    }
    // The body counted where it stands (its slot taken first, as messages start), then the length before it.
    let slot = bodyLengths.count
    bodyLengths.append(0)
    let start = length
    value.encode(to: &self)
    let body = length - start
    bodyLengths[slot] = body
    length += Self.varintLength(UInt64(body))
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
