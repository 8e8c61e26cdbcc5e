/// NumPy's `default_rng(seed)`: the PCG64 generator (128-bit LCG, XSL-RR output) seeded through `SeedSequence`,
/// and the shuffle of its `Generator`.
///
/// scikit-learn's histogram gradient boosting draws the features each split may use (`max_features` below 1)
/// by shuffling a boolean mask with `default_rng(feature_subsample_seed)`; this reproduces those draws exactly.
/// The 128-bit arithmetic is done on two 64-bit words (Swift's `UInt128` needs macOS 15).
public struct PCG64: Sendable {
  private var high: UInt64
  private var low: UInt64
  private let incrementHigh: UInt64
  private let incrementLow: UInt64
  /// `next32` hands out a 64-bit output in two halves, low first (NumPy's `has_uint32`).
  private var spare: UInt32?

  private static let multiplierHigh: UInt64 = 2_549_297_995_355_413_924
  private static let multiplierLow: UInt64 = 4_865_540_595_714_422_341

  /// `np.random.default_rng(seed)` for a non-negative integer seed below 2⁶⁴.
  public init(seed: UInt64) {
    let words = Self.seedSequenceState(entropy: seed)
    high = 0
    low = 0
    incrementHigh = (words[2] << 1) | (words[3] >> 63)
    incrementLow = (words[3] << 1) | 1
    step()
    let (sum, carry) = low.addingReportingOverflow(words[1])
    low = sum
    high = high &+ words[0] &+ (carry ? 1 : 0)
    step()
  }

  private mutating func step() {
    let (productHigh, productLow) = low.multipliedFullWidth(by: Self.multiplierLow)
    let newHigh = productHigh &+ low &* Self.multiplierHigh &+ high &* Self.multiplierLow
    let (sum, carry) = productLow.addingReportingOverflow(incrementLow)
    low = sum
    high = newHigh &+ incrementHigh &+ (carry ? 1 : 0)
  }

  /// The next 64-bit output.
  public mutating func next64() -> UInt64 {
    step()
    let x = high ^ low
    let rotation = high >> 58
    return (x >> rotation) | (x << ((64 &- rotation) & 63))
  }

  /// The next 32-bit output: the low half of a 64-bit output, then its high half.
  public mutating func next32() -> UInt32 {
    if let spare {
      self.spare = nil
      return spare
    }
    let next = next64()
    spare = UInt32(truncatingIfNeeded: next >> 32)
    return UInt32(truncatingIfNeeded: next)
  }

  /// NumPy's `random_interval(max)` for `max` < 2³²: masked rejection of 32-bit outputs.
  public mutating func interval(_ max: Int) -> Int {
    precondition(max >= 0 && max <= Int(UInt32.max), "interval bound must be in 0...2^32-1")
    if max == 0 { return 0 }
    var mask = UInt32(max)
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    while true {
      let value = next32() & mask
      if value <= UInt32(max) { return Int(value) }
    }
  }

  /// `Generator.shuffle` of a one-dimensional array.
  public mutating func shuffle<T>(_ values: inout [T]) {
    guard values.count > 1 else { return }
    for i in stride(from: values.count - 1, through: 1, by: -1) {
      values.swapAt(i, interval(i))
    }
  }

  /// `SeedSequence(entropy).generate_state(4, np.uint64)`: the entropy's 32-bit words hashed into a pool of four
  /// and drawn out again (O'Neill's seed_seq design as NumPy implements it).
  static func seedSequenceState(entropy: UInt64) -> [UInt64] {
    var words: [UInt32] = []
    var rest = entropy
    repeat {
      words.append(UInt32(truncatingIfNeeded: rest))
      rest >>= 32
    } while rest > 0
    var hashConstant: UInt32 = 0x43b0_d7e5
    func hashmix(_ value: UInt32) -> UInt32 {
      var value = value ^ hashConstant
      hashConstant = hashConstant &* 0x931e_8875
      value = value &* hashConstant
      return value ^ (value >> 16)
    }
    func mix(_ x: UInt32, _ y: UInt32) -> UInt32 {
      let result = 0xca01_f9dd &* x &- 0x4973_f715 &* y
      return result ^ (result >> 16)
    }
    var pool = (0..<4).map { hashmix($0 < words.count ? words[$0] : 0) }
    for source in 0..<4 {
      for destination in 0..<4 where source != destination {
        pool[destination] = mix(pool[destination], hashmix(pool[source]))
      }
    }
    for source in 4..<max(words.count, 4) {
      for destination in 0..<4 { pool[destination] = mix(pool[destination], hashmix(words[source])) }
    }
    var drawConstant: UInt32 = 0x8b51_f9dd
    var state: [UInt32] = []
    for i in 0..<8 {
      var value = pool[i % 4] ^ drawConstant
      drawConstant = drawConstant &* 0x58f3_8ded
      value = value &* drawConstant
      state.append(value ^ (value >> 16))
    }
    return (0..<4).map { UInt64(state[2 * $0]) | (UInt64(state[2 * $0 + 1]) << 32) }
  }
}
