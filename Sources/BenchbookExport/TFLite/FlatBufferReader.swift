/// Reads a FlatBuffer written by any builder: tables through their vtables,
/// with every offset checked against the buffer, so a crafted file is an
/// error at its byte offset, never a read out of bounds.
public struct FlatBufferReader {
  /// A table: its position in the buffer.
  public struct Table {
    public let position: Int
    fileprivate let vtable: Int
    fileprivate let vtableSize: Int
  }

  public let bytes: [UInt8]

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  private func failure(_ message: String, at offset: Int) -> ModelFileError {
    ModelFileError(message, offset: offset)
  }

  public func uint32(at position: Int) throws(ModelFileError) -> UInt32 {
    guard position >= 0, position + 4 <= bytes.count else { throw failure("truncated 32-bit value", at: position) }
    var value: UInt32 = 0
    for i in 0..<4 { value |= UInt32(bytes[position + i]) << (8 * UInt32(i)) }
    return value
  }

  public func uint16(at position: Int) throws(ModelFileError) -> UInt16 {
    guard position >= 0, position + 2 <= bytes.count else { throw failure("truncated 16-bit value", at: position) }
    return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
  }

  public func uint64(at position: Int) throws(ModelFileError) -> UInt64 {
    UInt64(try uint32(at: position)) | UInt64(try uint32(at: position + 4)) << 32
  }

  /// The 4-character file identifier after the root offset.
  public var identifier: String? {
    guard bytes.count >= 8 else { return nil }
    return String(decoding: bytes[4..<8], as: UTF8.self)
  }

  /// The root table.
  public func root() throws(ModelFileError) -> Table {
    try table(at: Int(try uint32(at: 0)))
  }

  public func table(at position: Int) throws(ModelFileError) -> Table {
    let relative = Int(Int32(bitPattern: try uint32(at: position)))
    let vtable = position - relative
    let size = Int(try uint16(at: vtable))
    guard size >= 4, size % 2 == 0, vtable + size <= bytes.count else {
      throw failure("a table's vtable is malformed", at: position)
    }
    return Table(position: position, vtable: vtable, vtableSize: size)
  }

  /// Where field `id` of `table` lies, or nil when it is absent.
  public func field(_ table: Table, _ id: Int) throws(ModelFileError) -> Int? {
    let entry = 4 + 2 * id
    guard entry < table.vtableSize else { return nil }
    let offset = Int(try uint16(at: table.vtable + entry))
    return offset == 0 ? nil : table.position + offset
  }

  public func int(_ table: Table, _ id: Int, bytes width: Int, signed: Bool = false, default fallback: Int = 0)
    throws(ModelFileError) -> Int
  {
    guard let position = try field(table, id) else { return fallback }
    switch (width, signed) {
    case (1, false):
      guard position < bytes.count else { throw failure("truncated byte", at: position) }
      return Int(bytes[position])
    case (1, true):
      guard position < bytes.count else { throw failure("truncated byte", at: position) }
      return Int(Int8(bitPattern: bytes[position]))
    case (2, _): return Int(try uint16(at: position))
    case (4, false): return Int(try uint32(at: position))
    case (4, true): return Int(Int32(bitPattern: try uint32(at: position)))
    default: return Int(Int64(bitPattern: try uint64(at: position)))
    }
  }

  public func float(_ table: Table, _ id: Int, default fallback: Float = 0) throws(ModelFileError) -> Float {
    guard let position = try field(table, id) else { return fallback }
    return Float(bitPattern: try uint32(at: position))
  }

  /// The object an offset field points at.
  private func target(_ table: Table, _ id: Int) throws(ModelFileError) -> Int? {
    guard let position = try field(table, id) else { return nil }
    let target = position + Int(try uint32(at: position))
    guard target < bytes.count else { throw failure("an offset points past the end", at: position) }
    return target
  }

  public func subtable(_ table: Table, _ id: Int) throws(ModelFileError) -> Table? {
    guard let position = try target(table, id) else { return nil }
    return try self.table(at: position)
  }

  public func string(_ table: Table, _ id: Int) throws(ModelFileError) -> String? {
    guard let position = try target(table, id) else { return nil }
    return try string(at: position)
  }

  public func string(at position: Int) throws(ModelFileError) -> String {
    let (start, count) = try vectorBounds(at: position, width: 1)
    guard let text = String(validating: bytes[start..<(start + count)], as: UTF8.self) else {
      throw failure("a string is not valid UTF-8", at: position)
    }
    return text
  }

  /// A vector's first element and its length, checked to lie inside the buffer.
  public func vectorBounds(at position: Int, width: Int) throws(ModelFileError) -> (start: Int, count: Int) {
    let count = Int(try uint32(at: position))
    guard count <= (bytes.count - position - 4) / max(width, 1) else {
      throw failure("a vector of \(count) elements runs past the end", at: position)
    }
    return (position + 4, count)
  }

  /// Vector field `id`'s bounds, nil when absent.
  public func vector(_ table: Table, _ id: Int, width: Int) throws(ModelFileError) -> (start: Int, count: Int)? {
    guard let position = try target(table, id) else { return nil }
    return try vectorBounds(at: position, width: width)
  }

  public func int32s(_ table: Table, _ id: Int) throws(ModelFileError) -> [Int32] {
    guard let (start, count) = try vector(table, id, width: 4) else { return [] }
    var out: [Int32] = []
    out.reserveCapacity(count)
    for i in 0..<count { out.append(Int32(bitPattern: try uint32(at: start + 4 * i))) }
    return out
  }

  public func bytes(_ table: Table, _ id: Int) throws(ModelFileError) -> ArraySlice<UInt8> {
    guard let (start, count) = try vector(table, id, width: 1) else { return [] }
    return bytes[start..<(start + count)]
  }

  /// A vector of tables.
  public func tables(_ table: Table, _ id: Int) throws(ModelFileError) -> [Table] {
    guard let (start, count) = try vector(table, id, width: 4) else { return [] }
    var out: [Table] = []
    for i in 0..<count {
      let element = start + 4 * i
      out.append(try self.table(at: element + Int(try uint32(at: element))))
    }
    return out
  }

  public func strings(_ table: Table, _ id: Int) throws(ModelFileError) -> [String] {
    guard let (start, count) = try vector(table, id, width: 4) else { return [] }
    var out: [String] = []
    for i in 0..<count {
      let element = start + 4 * i
      out.append(try string(at: element + Int(try uint32(at: element))))
    }
    return out
  }
}
