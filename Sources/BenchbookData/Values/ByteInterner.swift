/// Numbers distinct byte strings in order of first appearance, comparing raw
/// UTF-8 so labels that differ in any byte stay distinct (as in pandas),
/// without allocating a `String` per cell.
struct ByteInterner {
  /// Open-addressing table of ids (`-1` = empty), size a power of two.
  private var slots: [Int32] = Array(repeating: -1, count: 64)
  private var hashes: [UInt64] = []
  /// The bytes of each distinct string, back to back.
  private(set) var storage: [UInt8] = []
  private var ends: [Int] = []

  var count: Int { ends.count }

  /// The id of `bytes`, adding it if new.
  mutating func id(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let mask = slots.count - 1
    var position = Int(truncatingIfNeeded: hash) & mask
    while true {
      let existing = Int(slots[position])
      if existing < 0 { break }
      if hashes[existing] == hash && equals(existing, bytes) { return existing }
      position = (position + 1) & mask
    }
    let id = ends.count
    slots[position] = Int32(id)
    hashes.append(hash)
    storage.append(contentsOf: bytes)
    ends.append(storage.count)
    if ends.count * 2 > slots.count { grow() }
    return id
  }

  /// The text of id `id`.
  func string(_ id: Int) -> String {
    String(decoding: bytes(id), as: UTF8.self)
  }

  func bytes(_ id: Int) -> ArraySlice<UInt8> {
    storage[(id == 0 ? 0 : ends[id - 1])..<ends[id]]
  }

  private func equals(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let stored = self.bytes(id)
    return stored.count == bytes.count && stored.elementsEqual(bytes)
  }

  private mutating func grow() {
    slots = Array(repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for id in hashes.indices {
      var position = Int(truncatingIfNeeded: hashes[id]) & mask
      while slots[position] >= 0 { position = (position + 1) & mask }
      slots[position] = Int32(id)
    }
  }
}
