/// Writes a FlatBuffer: Benchbook's own, since no mirrored Swift package
/// offers FlatBuffers.
///
/// A FlatBuffer's offsets point forward (to higher addresses), so it is built
/// back to front: every object is written before the objects that refer to
/// it, and the root last. The builder keeps the bytes in reverse order, so
/// prepending is an append, and measures positions as distances from the end
/// of the buffer, which do not move as more is prepended. Alignment is kept
/// relative to the end, and `finish` pads the front to the largest alignment
/// used, which makes it absolute.
///
/// Tables: `startTable`, then scalar and offset fields (children are built
/// before the table starts), then `endTable` writes the table's vtable (field
/// offsets), sharing an earlier identical vtable when there is one.
/// Scalars equal to the schema's default are left out, as FlatBuffers does.
public struct FlatBufferBuilder {
  /// A written object: its distance from the end of the buffer.
  public struct Offset: Equatable {
    public let distance: Int
  }

  /// The buffer's bytes, last byte first.
  private var reversed: [UInt8] = []
  private var largestAlignment = 4
  /// Fields of the table being built: (field id, distance of the field).
  private var fields: [(id: Int, distance: Int)] = []
  private var tableStart: Int?
  /// Vtables written so far, as their 16-bit entries, with their distances.
  private var vtables: [(entries: [UInt16], distance: Int)] = []

  public init(reservingCapacity capacity: Int = 1024) {
    reversed.reserveCapacity(capacity)
  }

  /// Bytes written so far.
  public var size: Int { reversed.count }

  // MARK: - Primitives

  /// Zero bytes so that `extra` more bytes end on a multiple of `alignment`.
  private mutating func pad(_ alignment: Int, extra: Int = 0) {
    largestAlignment = max(largestAlignment, alignment)
    let padding = (alignment - (reversed.count + extra) % alignment) % alignment
    for _ in 0..<padding { reversed.append(0) }
  }

  /// Little-endian bytes of `value`, most significant first (the buffer is reversed).
  private mutating func put<T: FixedWidthInteger>(_ value: T) {
    let bytes = MemoryLayout<T>.size
    for i in (0..<bytes).reversed() { reversed.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
  }

  private mutating func prepend<T: FixedWidthInteger>(_ value: T) {
    pad(MemoryLayout<T>.size)
    put(value)
  }

  /// An offset field or element pointing at `target`: the distance from where it is written to the target.
  private mutating func prependOffset(_ target: Offset) {
    pad(4)
    precondition(target.distance <= reversed.count, "an offset must point at an object already written")
    put(UInt32(reversed.count + 4 - target.distance))
  }

  // MARK: - Strings and vectors

  /// A string: its UTF-8 bytes and a terminating zero, after a 32-bit length.
  public mutating func string(_ text: String) -> Offset {
    precondition(tableStart == nil, "strings are built before the table that holds them")
    let utf8 = Array(text.utf8)
    pad(4, extra: utf8.count + 1)
    reversed.append(0)
    reversed.append(contentsOf: utf8.reversed())
    put(UInt32(utf8.count))
    return Offset(distance: reversed.count)
  }

  /// A vector of integers, its elements aligned to `alignment` (at least their size and 4).
  public mutating func vector<T: FixedWidthInteger>(_ values: [T], alignment: Int = 4) -> Offset {
    precondition(tableStart == nil, "vectors are built before the table that holds them")
    let width = MemoryLayout<T>.size
    pad(max(alignment, width, 4), extra: values.count * width)
    for value in values.reversed() { put(value) }
    put(UInt32(values.count))
    return Offset(distance: reversed.count)
  }

  public mutating func vector(floats: [Float], alignment: Int = 4) -> Offset {
    vector(floats.map(\.bitPattern), alignment: alignment)
  }

  /// A vector of offsets to objects already written (tables, strings, vectors).
  public mutating func vector(offsets: [Offset]) -> Offset {
    precondition(tableStart == nil, "vectors are built before the table that holds them")
    pad(4, extra: offsets.count * 4)
    for offset in offsets.reversed() { prependOffset(offset) }
    put(UInt32(offsets.count))
    return Offset(distance: reversed.count)
  }

  // MARK: - Tables

  public mutating func startTable() {
    precondition(tableStart == nil, "tables do not nest while being built")
    tableStart = reversed.count
    fields = []
  }

  /// An integer field, left out when it equals the schema's default.
  public mutating func add<T: FixedWidthInteger>(_ id: Int, _ value: T, default fallback: T = 0) {
    precondition(tableStart != nil, "a field outside a table")
    guard value != fallback else { return }
    prepend(value)
    fields.append((id, reversed.count))
  }

  public mutating func add(_ id: Int, _ value: Bool) {
    add(id, UInt8(value ? 1 : 0))
  }

  /// A float field, left out when it equals the schema's default (bit for bit).
  public mutating func add(_ id: Int, float value: Float, default fallback: Float = 0) {
    precondition(tableStart != nil, "a field outside a table")
    guard value.bitPattern != fallback.bitPattern else { return }
    prepend(value.bitPattern)
    fields.append((id, reversed.count))
  }

  /// A field referring to a string, vector or table already written.
  public mutating func add(_ id: Int, _ offset: Offset) {
    precondition(tableStart != nil, "a field outside a table")
    prependOffset(offset)
    fields.append((id, reversed.count))
  }

  /// Closes the table: writes its vtable offset and its vtable (or points at an identical earlier one).
  public mutating func endTable() -> Offset {
    guard let start = tableStart else { preconditionFailure("endTable without startTable") }
    prepend(Int32(0))  // the vtable's offset, patched below
    let table = reversed.count
    let count = (fields.map(\.id).max() ?? -1) + 1
    var entries = [UInt16](repeating: 0, count: 2 + count)
    entries[0] = UInt16(4 + 2 * count)
    entries[1] = UInt16(table - start)
    for field in fields { entries[2 + field.id] = UInt16(table - field.distance) }
    let vtable: Int
    if let shared = vtables.first(where: { $0.entries == entries }) {
      vtable = shared.distance
    } else {
      for entry in entries.reversed() { put(entry) }
      vtable = reversed.count
      vtables.append((entries, vtable))
    }
    // table − vtable, in addresses: the vtable's distance minus the table's.
    let relative = UInt32(bitPattern: Int32(vtable - table))
    for i in 0..<4 { reversed[table - 1 - i] = UInt8(truncatingIfNeeded: relative >> (8 * i)) }
    tableStart = nil
    return Offset(distance: table)
  }

  // MARK: - Finishing

  /// The finished buffer: an offset to `root`, then the 4-character file identifier, then the objects.
  public mutating func finish(root: Offset, identifier: String) -> [UInt8] {
    precondition(identifier.utf8.count == 4, "a file identifier has four bytes")
    pad(largestAlignment, extra: 8)
    reversed.append(contentsOf: identifier.utf8.reversed())
    prependOffset(root)
    return reversed.reversed()
  }
}
