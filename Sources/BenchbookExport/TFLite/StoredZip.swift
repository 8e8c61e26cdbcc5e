/// A zip archive of uncompressed ("stored") files: how a TensorFlow Lite
/// file carries the files its metadata names (`AssociatedFile`), appended
/// after the FlatBuffer, which the interpreter ignores. Offsets are from the
/// start of the whole file, so the archive reads as it stands at the end of it.
enum StoredZip {
  /// The archive for `files`, to append to a file of `prefix` bytes; entries in the given order, no timestamps.
  static func archive(_ files: [(name: String, contents: [UInt8])], after prefix: Int) -> [UInt8] {
    var out: [UInt8] = []
    var central: [UInt8] = []
    func le16(_ value: Int, _ into: inout [UInt8]) {
      into.append(UInt8(value & 0xFF))
      into.append(UInt8((value >> 8) & 0xFF))
    }
    func le32(_ value: UInt32, _ into: inout [UInt8]) {
      for i in 0..<4 { into.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) }
    }
    for file in files {
      let name = Array(file.name.utf8)
      let crc = crc32(file.contents)
      let offset = UInt32(prefix + out.count)
      // Local file header: version 1.0, flags 0 (bit 11: UTF-8 names), method 0 (stored), time and date 0.
      le32(0x0403_4B50, &out)
      le16(10, &out)
      le16(0x0800, &out)
      le16(0, &out)
      le16(0, &out)
      le16(0x21, &out)  // 1980-01-01, the earliest date the format has
      le32(crc, &out)
      le32(UInt32(file.contents.count), &out)
      le32(UInt32(file.contents.count), &out)
      le16(name.count, &out)
      le16(0, &out)
      out += name
      out += file.contents
      // Central directory entry.
      le32(0x0201_4B50, &central)
      le16(10, &central)
      le16(10, &central)
      le16(0x0800, &central)
      le16(0, &central)
      le16(0, &central)
      le16(0x21, &central)
      le32(crc, &central)
      le32(UInt32(file.contents.count), &central)
      le32(UInt32(file.contents.count), &central)
      le16(name.count, &central)
      le16(0, &central)
      le16(0, &central)
      le16(0, &central)
      le16(0, &central)
      le32(0, &central)
      le32(offset, &central)
      central += name
    }
    let centralOffset = UInt32(prefix + out.count)
    out += central
    // End of central directory.
    le32(0x0605_4B50, &out)
    le16(0, &out)
    le16(0, &out)
    le16(files.count, &out)
    le16(files.count, &out)
    le32(UInt32(central.count), &out)
    le32(centralOffset, &out)
    le16(0, &out)
    return out
  }

  /// The stored files of an archive at the end of `bytes`, by name; empty when there is none.
  static func files(in bytes: [UInt8]) -> [(name: String, contents: [UInt8])] {
    func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func le32(_ at: Int) -> Int { le16(at) | le16(at + 2) << 16 }
    let end = bytes.count - 22
    guard end >= 0, le32(end) == 0x0605_4B50 else { return [] }
    let count = le16(end + 10)
    var position = le32(end + 16)
    var out: [(String, [UInt8])] = []
    for _ in 0..<count {
      guard position + 46 <= bytes.count, le32(position) == 0x0201_4B50 else { return out }
      let method = le16(position + 10)
      let size = le32(position + 20)
      let nameLength = le16(position + 28)
      let skip = le16(position + 30) + le16(position + 32)
      let local = le32(position + 42)
      guard position + 46 + nameLength <= bytes.count, local + 30 <= bytes.count else { return out }
      let name = String(decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
      let data = local + 30 + le16(local + 26) + le16(local + 28)
      if method == 0, data + size <= bytes.count { out.append((name, Array(bytes[data..<(data + size)]))) }
      position += 46 + nameLength + skip
    }
    return out
  }

  /// CRC-32 (ISO 3309, reflected polynomial 0xEDB88320), as zip checks its entries.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
