/// A 64-bit hash of a row's numbers, one word at a time in FNV-1a's manner (xor the word in, multiply by FNV's
/// 64-bit prime), with −0 hashed as +0 so that values equal as numbers hash alike.
///
/// The audit groups identical rows and a feature's identical values by it, and grouped logistic regression a
/// fold's identical rows; equal hashes do not prove equal rows, so every caller that groups compares them too.
/// A fitted transform's `RowSetFingerprint` combines row numbers with it, a word each (`combine(bits:)`).
public struct ValueHasher {
  @usableFromInline
  var state: UInt64

  /// A hash that starts from FNV's offset basis, xored with `seed` (the audit's duplicate check seeds with the label).
  @inlinable
  public init(seed: UInt64 = 0) {
    state = 0xCBF2_9CE4_8422_2325 ^ seed
  }

  /// A hash that starts from `state` as given: a caller combining hashes of its own from another basis.
  @inlinable
  public init(state: UInt64) {
    self.state = state
  }

  @inlinable
  public mutating func combine(_ value: Double) {
    combine(bits: value == 0 ? 0 : value.bitPattern)
  }

  /// One word as it is (another hash, say).
  @inlinable
  public mutating func combine(bits: UInt64) {
    state = (state ^ bits) &* 0x0000_0100_0000_01B3
  }

  /// The words combined so far, unfolded.
  @inlinable
  public var unfolded: UInt64 { state }

  /// The hash, its high bits folded down so that a table indexed by its low bits sees all of them.
  @inlinable
  public var finalized: UInt64 { state ^ (state >> 29) }
}
