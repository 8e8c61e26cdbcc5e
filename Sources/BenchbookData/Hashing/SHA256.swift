/// SHA-256 (FIPS 180-4), so provenance can fingerprint data files without a
/// crypto dependency.
///
/// Feed bytes with `update` as often as needed, then `finalize`. For whole
/// buffers use `SHA256.digest(_:)` or `SHA256.hexDigest(_:)`.
public struct SHA256: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  /// Bytes of an incomplete block waiting for more input.
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  public init() {}

  /// Adds bytes to the message.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    length &+= UInt64(bytes.count)
    var input = bytes
    if !pending.isEmpty {
      let take = min(64 - pending.count, input.count)
      pending.append(contentsOf: input.prefix(take))
      input = UnsafeRawBufferPointer(rebasing: input.dropFirst(take))
      guard pending.count == 64 else { return }
      pending.withUnsafeBytes { compress(blocks: $0) }
      pending.removeAll(keepingCapacity: true)
    }
    let whole = input.count / 64 * 64
    if whole > 0 { compress(blocks: UnsafeRawBufferPointer(rebasing: input.prefix(whole))) }
    if whole < input.count { pending.append(contentsOf: input.dropFirst(whole)) }
  }

  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  public mutating func update(_ text: String) {
    var text = text
    text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
  }

  /// The 32-byte digest of everything added so far. The hasher is left
  /// finished; start a new one for another message.
  public mutating func finalize() -> [UInt8] {
    let bitLength = length &* 8
    var tail: [UInt8] = [0x80]
    let padding = (55 - Int(length % 64) + 64) % 64
    tail.append(contentsOf: repeatElement(0, count: padding))
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    tail.withUnsafeBytes { update($0) }
    precondition(pending.isEmpty)
    let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
  }

  /// The digest of `bytes`.
  public static func digest(_ bytes: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// The digest of `bytes` as 64 lowercase hex digits, like `sha256sum`.
  public static func hexDigest(_ bytes: [UInt8]) -> String {
    hex(digest(bytes))
  }

  /// The digest of `text`'s UTF-8 as lowercase hex.
  public static func hexDigest(_ text: String) -> String {
    var hasher = SHA256()
    hasher.update(text)
    return hex(hasher.finalize())
  }

  /// `bytes` (a digest) as lowercase hex.
  public static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Round constants: the first 32 bits of the fractional parts of the cube
  /// roots of the first 64 primes.
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  /// Runs the compression function over whole 64-byte blocks.
  private mutating func compress(blocks: UnsafeRawBufferPointer) {
    var (h0, h1, h2, h3, h4, h5, h6, h7) = state
    Self.roundConstants.withUnsafeBufferPointer { k in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
        var offset = 0
        while offset < blocks.count {
          for t in 0..<16 {
            w[t] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 4 * t, as: UInt32.self))
          }
          for t in 16..<64 {
            let a = w[t - 15]
            let b = w[t - 2]
            let s0 = a.rotatedRight(7) ^ a.rotatedRight(18) ^ (a >> 3)
            let s1 = b.rotatedRight(17) ^ b.rotatedRight(19) ^ (b >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
          }
          var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
          // Eight rounds per pass with the roles of the variables rotated by
          // hand, so no round spends moves shifting a…h down by one.
          var t = 0
          while t < 64 {
            round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
            round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1])
            round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2])
            round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3])
            round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4])
            round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5])
            round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6])
            round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7])
            t += 8
          }
          h0 &+= a
          h1 &+= b
          h2 &+= c
          h3 &+= d
          h4 &+= e
          h5 &+= f
          h6 &+= g
          h7 &+= h
          offset += 64
        }
      }
    }
    state = (h0, h1, h2, h3, h4, h5, h6, h7)
  }
}

/// One SHA-256 round: `d` becomes the next `e` and `h` the next `a`; the
/// caller renames the rest.
@inline(__always)
private func round(
  _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
  _ h: inout UInt32, _ constantPlusWord: UInt32
) {
  let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
  let choice = (e & f) ^ (~e & g)
  let t1 = h &+ s1 &+ choice &+ constantPlusWord
  let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
  let majority = (a & b) ^ (a & c) ^ (b & c)
  d &+= t1
  h = t1 &+ s0 &+ majority
}

extension UInt32 {
  @inline(__always)
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
    (self >> count) | (self << (32 - count))
  }
}
