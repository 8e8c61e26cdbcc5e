/// A compact, order-sensitive identity of a list of row indices: how many, and
/// a 64-bit hash of them in order. Fitted transforms carry one for the rows they
/// were fitted on, so the leak audit can check every transform saw exactly its
/// training fold without keeping the row lists.
public struct RowSetFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
  public var count: Int
  public var hash: UInt64

  public init<S: Sequence<Int>>(_ rows: S) {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    var count = 0
    for row in rows {
      h = (h ^ UInt64(bitPattern: Int64(row))) &* 0x0000_0100_0000_01B3
      count += 1
    }
    // SplitMix64's finaliser, so nearby row lists land far apart.
    h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
    h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
    self.count = count
    hash = h ^ (h >> 31)
  }

  public var description: String { "\(count) rows, hash \(String(hash, radix: 16))" }
}
