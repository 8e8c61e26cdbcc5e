import Foundation

/// A small, fixed computation timed beside every model: dividing a model's time
/// by it cancels a machine that is uniformly faster or slower today, while a
/// slowdown of one model still shows.
///
/// It does, in about equal shares, what the five models spend their time on:
/// dot products (linear models), `exp` and `log` (probabilities and losses),
/// sorting (tree splits) and data-dependent descents through a sorted array
/// (tree and kd-tree search). A workload of one kind only drifts against the
/// models when the processor changes: a mix of square roots, divisions and a
/// sort alone can run far faster on one processor than on another that runs
/// the models at nearly the same speed.
public struct ReferenceWorkload: Sendable {
  /// Names this workload in baselines; timings against another are not compared.
  public static let identifier = "mix-2"

  private let values: [Double]
  private let weights: [Double]
  private let keys: [Double]
  private let queries: [Double]

  public init() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    values = (0..<2_048).map { _ in next() * 8 - 4 }
    weights = (0..<64).map { _ in next() - 0.5 }
    keys = (0..<32_768).map { _ in next() }.sorted()
    queries = (0..<2_048).map { _ in next() }
  }

  /// Runs the workload once and returns a value derived from all of it, so the
  /// optimiser can drop no part; `salt` differs between calls so that no call
  /// can be hoisted out of a loop.
  @inline(never)
  public func run(salt: Int = 0) -> Double {
    let shift = Double(salt & 1_023) * 1e-12
    return dotProducts(shift) + logistic(shift) + sorting(shift) + search(shift)
  }

  private func dotProducts(_ shift: Double) -> Double {
    var total = 0.0
    values.withUnsafeBufferPointer { x in
      weights.withUnsafeBufferPointer { w in
        for pass in 0..<8 {
          for row in stride(from: 0, to: x.count - w.count, by: 16) {
            var sum = shift
            for column in 0..<w.count { sum += x[row + column] * w[column] }
            total += sum * Double(pass + 1)
          }
        }
      }
    }
    return total
  }

  private func logistic(_ shift: Double) -> Double {
    var total = 0.0
    for z in values {
      let margin = abs(z + shift)
      total += log1p(exp(-margin)) + log(margin + 1)
    }
    return total
  }

  private func sorting(_ shift: Double) -> Double {
    var copy = values
    copy[0] += shift
    copy.sort()
    return copy[copy.count / 2]
  }

  private func search(_ shift: Double) -> Double {
    var total = 0.0
    keys.withUnsafeBufferPointer { k in
      for query in queries {
        let q = query + shift
        var low = 0
        var high = k.count
        while low < high {
          let middle = (low + high) / 2
          if k[middle] < q { low = middle + 1 } else { high = middle }
        }
        total += k[min(low, k.count - 1)] - q
      }
    }
    return total
  }
}
