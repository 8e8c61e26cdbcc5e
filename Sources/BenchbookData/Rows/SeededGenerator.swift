/// Benchbook's own random number generator: xoshiro256**, seeded through SplitMix64.
///
/// Owning the generator (and the shuffle below) means a toolchain update can
/// never change fold assignments: the same seed gives the same folds forever.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: (UInt64, UInt64, UInt64, UInt64)

  public init(seed: UInt64) {
    var splitMix = seed
    func next() -> UInt64 {
      splitMix &+= 0x9E37_79B9_7F4A_7C15
      var z = splitMix
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    state = (next(), next(), next(), next())
  }

  /// Starts from a raw generator state (not all zero), for checks against the reference outputs.
  public init(state: (UInt64, UInt64, UInt64, UInt64)) {
    precondition(state != (0, 0, 0, 0), "xoshiro's state must not be all zero")
    self.state = state
  }

  public mutating func next() -> UInt64 {
    let result = rotate(state.1 &* 5, 7) &* 9
    let t = state.1 << 17
    state.2 ^= state.0
    state.3 ^= state.1
    state.1 ^= state.2
    state.0 ^= state.3
    state.2 ^= t
    state.3 = rotate(state.3, 45)
    return result
  }

  private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

  /// A uniform integer in `0..<bound`, by Lemire's unbiased multiply-and-reject.
  public mutating func uniform(below bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    let range = UInt64(bound)
    var product = next().multipliedFullWidth(by: range)
    if product.low < range {
      let threshold = (0 &- range) % range
      while product.low < threshold {
        product = next().multipliedFullWidth(by: range)
      }
    }
    return Int(product.high)
  }

  /// Fisher–Yates shuffle with this generator, independent of the standard library's.
  public mutating func shuffle<T>(_ array: inout [T]) {
    guard array.count > 1 else { return }
    for i in stride(from: array.count - 1, to: 0, by: -1) {
      let j = uniform(below: i + 1)
      if i != j { array.swapAt(i, j) }
    }
  }

  /// An independent seed for the `index`-th stream derived from `seed`
  /// (repeated k-fold uses one per repeat).
  public static func derivedSeed(_ seed: UInt64, stream index: Int) -> UInt64 {
    var generator = SeededGenerator(seed: seed ^ (0xA076_1D64_78BD_642F &* UInt64(index + 1)))
    return generator.next()
  }
}
