/// The 32-bit Mersenne Twister (MT19937) behind NumPy's legacy `RandomState`.
///
/// Benchbook needs it for one number: scikit-learn seeds its tree's feature
/// shuffle with `RandomState(random_state).randint(0, 2³¹ − 1)`, so matching a
/// seeded scikit-learn tree starts with drawing that integer exactly. Written
/// from Matsumoto and Nishimura's published description (1998): the linear
/// seeding of `init_genrand`, the twist of 624 words and the output tempering.
public struct MersenneTwister: Sendable {
  private var state: [UInt32]
  private var index: Int

  /// `RandomState(seed)` for an integer seed: the reference `init_genrand`.
  public init(seed: UInt32) {
    var state = [UInt32](repeating: 0, count: 624)
    state[0] = seed
    for i in 1..<624 {
      let previous = state[i - 1]
      state[i] = 1_812_433_253 &* (previous ^ (previous >> 30)) &+ UInt32(i)
    }
    self.state = state
    index = 624
  }

  /// The next 32-bit output.
  public mutating func next() -> UInt32 {
    if index >= 624 { twist() }
    var y = state[index]
    index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c_5680
    y ^= (y << 15) & 0xefc6_0000
    y ^= y >> 18
    return y
  }

  /// A uniform integer in `0..<upper` as NumPy's legacy `randint(0, upper)` draws it
  /// (`upper` ≤ 2³²): mask each 32-bit output to the fewest bits that hold
  /// `upper − 1` and reject values above it.
  public mutating func integer(below upper: UInt64) -> UInt64 {
    precondition(upper >= 1 && upper <= 1 << 32, "upper bound must be in 1...2^32")
    let largest = UInt32(upper - 1)
    if largest == 0 { return 0 }
    if largest == .max { return UInt64(next()) }
    let mask = UInt32.max >> UInt32(largest.leadingZeroBitCount)
    while true {
      let value = next() & mask
      if value <= largest { return UInt64(value) }
    }
  }

  /// Regenerates all 624 words (the "twist" of the recurrence).
  private mutating func twist() {
    for i in 0..<624 {
      let y = (state[i] & 0x8000_0000) | (state[(i + 1) % 624] & 0x7fff_ffff)
      state[i] = state[(i + 397) % 624] ^ (y >> 1) ^ (y & 1 == 0 ? 0 : 0x9908_b0df)
    }
    index = 0
  }
}
