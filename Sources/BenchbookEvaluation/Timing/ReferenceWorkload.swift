import Foundation

/// A small, fixed computation timed beside every model: dividing a model's time
/// by it cancels a machine that is uniformly faster or slower today, while a
/// slowdown of one model still shows.
///
/// It mixes what the models do: floating-point arithmetic over arrays, a
/// data-dependent sort, and scattered memory reads.
public struct ReferenceWorkload: Sendable {
  private let values: [Double]
  private let indices: [Int]

  public init() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    values = (0..<16_384).map { _ in Double(next()) / Double(1 << 53) }
    indices = (0..<16_384).map { _ in Int(next() % 16_384) }
  }

  /// Runs the workload once and returns a value derived from all of it, so the
  /// optimiser cannot drop any part.
  @inline(never)
  public func run() -> Double {
    var sum = 0.0
    values.withUnsafeBufferPointer { x in
      indices.withUnsafeBufferPointer { index in
        for i in 0..<x.count {
          let a = x[i]
          let b = x[index[i]]
          sum += (a * b + 1).squareRoot() - a / (b + 1)
        }
      }
    }
    var copy = Array(values.prefix(4_096))
    copy.sort()
    return sum + copy[2_048]
  }
}
