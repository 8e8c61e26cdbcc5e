import BenchbookData

/// A compact, order-sensitive identity of a list of row indices: how many, and
/// a 64-bit hash of them in order. Fitted transforms carry one for the rows they
/// were fitted on, so the leak audit can check every transform saw exactly its
/// training fold without keeping the row lists.
public struct RowSetFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
  public var count: Int
  public var hash: UInt64

  public init<S: Sequence<Int>>(_ rows: S) {
    var hasher = ValueHasher()
    var count = 0
    for row in rows {
      hasher.combine(bits: UInt64(bitPattern: Int64(row)))
      count += 1
    }
    self.init(count: count, mixed: hasher.unfolded)
  }

  /// The same fingerprint, walking a fold's rows by runs (every fit records one, so it is on the hot path).
  public init(_ rows: RowIndices) {
    var hasher = ValueHasher()
    rows.forEachRun { run in
      for row in run { hasher.combine(bits: UInt64(bitPattern: Int64(row))) }
    }
    self.init(count: rows.count, mixed: hasher.unfolded)
  }

  private init(count: Int, mixed: UInt64) {
    // SplitMix64's finaliser, so nearby row lists land far apart.
    var h = mixed
    h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
    h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
    self.count = count
    hash = h ^ (h >> 31)
  }

  public var description: String { "\(count) rows, hash \(String(hash, radix: 16))" }
}
