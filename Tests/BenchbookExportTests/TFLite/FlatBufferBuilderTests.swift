import BenchbookExport
import Testing

/// The FlatBuffers builder against buffers derived by hand from the FlatBuffers format: a root offset, the file
/// identifier, vtables of 16-bit entries (vtable size, object size, one offset per field), tables starting with a
/// signed offset to their vtable, strings and vectors as a 32-bit length then their elements, little-endian,
/// every scalar aligned to its size.
@Suite struct FlatBufferBuilderTests {
  /// One table, one uint32 field = 7, identifier TEST. Built back to front: the field (4 bytes), the table's
  /// vtable offset (4), the vtable [6, 8, 4] (vtable size, object size, field 0 at +4), two bytes of padding so
  /// the whole is a multiple of 4, the identifier, and the root offset (16, where the table starts).
  @Test func oneScalarField() {
    var builder = FlatBufferBuilder()
    builder.startTable()
    builder.add(0, UInt32(7))
    let table = builder.endTable()
    let bytes = builder.finish(root: table, identifier: "TEST")
    #expect(
      bytes == [
        0x10, 0, 0, 0,  // root: the table at 16
        0x54, 0x45, 0x53, 0x54,  // "TEST"
        0, 0,  // padding
        6, 0, 8, 0, 4, 0,  // vtable at 10: 6 bytes, object 8 bytes, field 0 at +4
        6, 0, 0, 0,  // table at 16: its vtable is 6 bytes before it
        7, 0, 0, 0,  // field 0
      ])
  }

  /// A table whose field 0 is a string "ab": the offset field points 4 bytes ahead, to the string's length
  /// (2), its bytes, a terminating zero and one byte of padding.
  @Test func stringField() {
    var builder = FlatBufferBuilder()
    let text = builder.string("ab")
    builder.startTable()
    builder.add(0, text)
    let table = builder.endTable()
    let bytes = builder.finish(root: table, identifier: "TEST")
    #expect(
      bytes == [
        0x10, 0, 0, 0, 0x54, 0x45, 0x53, 0x54, 0, 0,
        6, 0, 8, 0, 4, 0,  // vtable
        6, 0, 0, 0,  // table
        4, 0, 0, 0,  // field 0: the string is 4 bytes on, at 24
        2, 0, 0, 0, 0x61, 0x62, 0, 0,  // "ab", its zero, padding
      ])
  }

  /// Defaults are left out: a table whose only fields hold their defaults has the empty vtable [4, 4]
  /// (4 bytes of vtable, an object of just its 4-byte vtable offset).
  @Test func defaultsAreOmitted() {
    var builder = FlatBufferBuilder()
    builder.startTable()
    builder.add(0, Int32(5), default: 5)
    builder.add(1, float: 0)
    let table = builder.endTable()
    let bytes = builder.finish(root: table, identifier: "TEST")
    #expect(bytes == [0x0C, 0, 0, 0, 0x54, 0x45, 0x53, 0x54, 4, 0, 4, 0, 4, 0, 0, 0])
  }

  /// Tables of the same layout share one vtable: three one-field tables, built one after the other; the first
  /// sits on an aligned start, the next two after 2 bytes of padding each, so those two have the same vtable
  /// ([6, 10, 4]) and the later one points at the earlier one's, which lies after it (a negative offset).
  @Test func identicalVtablesAreShared() throws {
    var builder = FlatBufferBuilder()
    var tables: [FlatBufferBuilder.Offset] = []
    for value in [UInt32(1), 2, 3] {
      builder.startTable()
      builder.add(0, value)
      tables.append(builder.endTable())
    }
    let list = builder.vector(offsets: tables)
    builder.startTable()
    builder.add(0, list)
    let bytes = builder.finish(root: builder.endTable(), identifier: "TEST")
    let reader = FlatBufferReader(bytes)
    let read = try reader.tables(try reader.root(), 0)
    #expect(try read.map { try reader.int($0, 0, bytes: 4) } == [1, 2, 3])
    let soffsets = try read.map { Int(Int32(bitPattern: try reader.uint32(at: $0.position))) }
    let vtables = zip(read, soffsets).map { $0.position - $1 }
    #expect(vtables[1] == vtables[2] && vtables[0] != vtables[1])
    #expect(soffsets[0] > 0 && soffsets[1] > 0 && soffsets[2] < 0)
    #expect(try reader.uint16(at: vtables[2]) == 6 && reader.uint16(at: vtables[2] + 2) == 10)
  }

  /// Vectors are aligned as asked (a tensor buffer's data to 16 bytes) and read back whole.
  @Test func alignedVectors() throws {
    var builder = FlatBufferBuilder()
    let data = builder.vector([UInt8](1...5), alignment: 16)
    let floats = builder.vector(floats: [1.5, -2])
    builder.startTable()
    builder.add(0, data)
    builder.add(1, floats)
    builder.add(2, Int8(-3))
    let root = builder.endTable()
    let bytes = builder.finish(root: root, identifier: "TFL3")
    let reader = FlatBufferReader(bytes)
    let table = try reader.root()
    let (start, count) = try #require(try reader.vector(table, 0, width: 1))
    #expect(start % 16 == 0 && count == 5)
    #expect(Array(try reader.bytes(table, 0)) == [1, 2, 3, 4, 5])
    #expect(try reader.int32s(table, 1).map { Float(bitPattern: UInt32(bitPattern: $0)) } == [1.5, -2])
    #expect(try reader.int(table, 2, bytes: 1, signed: true) == -3)
    #expect(reader.identifier == "TFL3")
  }

  /// A crafted buffer is an error at a byte offset, never a read out of bounds.
  @Test func malformedBuffersAreErrors() {
    #expect(throws: ModelFileError.self) { try FlatBufferReader([0xFF, 0, 0, 0, 0, 0, 0, 0]).root() }
    #expect(throws: ModelFileError.self) { try FlatBufferReader([4, 0, 0, 0, 0, 0, 0x7F, 0]).root() }
    var builder = FlatBufferBuilder()
    let list = builder.vector([UInt32(1), 2, 3])
    builder.startTable()
    builder.add(0, list)
    var bytes = builder.finish(root: builder.endTable(), identifier: "TEST")
    // Claim a million elements.
    let reader = FlatBufferReader(bytes)
    let (start, _) = try! #require(try reader.vector(try reader.root(), 0, width: 4))
    bytes[start - 2] = 0x0F
    #expect(throws: ModelFileError.self) { try FlatBufferReader(bytes).int32s(try FlatBufferReader(bytes).root(), 0) }
  }
}
