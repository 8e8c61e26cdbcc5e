import BenchbookData
import Foundation

/// How likely a row is to have an identical twin by coincidence, from the data's own value frequencies, so
/// `cross-fold-duplicates` can tell a copied record from coarse values that coincide (titanic: three categories,
/// 14 distinct rows among 1,316).
///
/// A row's match probability π is the chance that another row drawn from the data equals it in the label and every
/// feature. Two estimates, the larger kept (coincidence is given the benefit of the doubt):
/// - features independent within the row's class: p(y) · Πf p(xf | y), the class carrying the main dependence
///   (a benign biopsy grades low on every scale), counts of values seen fewer than five times smoothed by
///   Good–Turing, with no value seen c + 1 times counted as one (a continuous column's values, each seen once
///   among hundreds, rarely recur: a value seen once among 100 such has 2/100 of a count);
/// - for each feature f, the rows of the same class that match on every other feature yet differ on f, over n − 1,
///   times p(xf | y) / (1 − p(xf | y)): the joint frequency of the other features, read from the data itself, so
///   correlated survey answers or "no work, no income" rows of coarse columns are not taken for copies; exact
///   twins are left out of that count, so copies cannot vouch for themselves.
///
/// A test row's chance of a twin among `t` training rows is 1 − (1 − π)^t. A row of many or fine-grained columns
/// has π so small that its chance of a twin is below `unlikely`: such twins are counted apart, against the sum of
/// their chances (a Poisson mean).
public struct DuplicateChance: Sendable {
  /// Per row, its match probability π.
  let match: [Double]

  /// A twin chance below this cannot be coincidence for one row.
  static let unlikely = 0.001

  init(_ dataset: Dataset, groups: (ids: [Int32], count: Int)) {
    let n = dataset.x.rows
    let labels = dataset.labels
    let width = dataset.x.columns
    let values = dataset.x.values
    // Each feature's value per row, as a hash of its encoded columns.
    let features = dataset.features
    var keys = [[UInt64]](repeating: [UInt64](repeating: 0, count: n), count: features.count)
    for (f, feature) in features.enumerated() {
      for r in 0..<n {
        var hasher = ValueHasher()
        for c in feature.columns { hasher.combine(values[r * width + c]) }
        keys[f][r] = hasher.finalized
      }
    }
    var classCount = [Int: Int]()
    for y in labels { classCount[y, default: 0] += 1 }
    var groupSize = [Int](repeating: 0, count: groups.count)
    for id in groups.ids { groupSize[Int(id)] += 1 }
    let total = Double(max(1, n))
    // Feature by feature: p(xf | y) per row, into the independent estimate, and the near-twin estimate from the
    // other features' joint frequency in the data. One feature's p is held at a time (on large data, every
    // feature's at once would weigh on the peak); the near-twin estimate keeps its largest over the features,
    // which the match probability takes at the end as before.
    var logIndependent = labels.map { log(Double(classCount[$0]!) / total) }
    var nearTwin = [Double](repeating: 0, count: n)
    for f in features.indices {
      var counts = [SIMD2<UInt64>: Int]()
      for r in 0..<n { counts[SIMD2(UInt64(labels[r]), keys[f][r]), default: 0] += 1 }
      // Count of counts per class, for Good–Turing: a value seen once among many values seen once (a continuous
      // column) is less likely to recur than 1/n says.
      var countOfCounts = [SIMD2<Int>: Int]()
      for (key, count) in counts { countOfCounts[SIMD2(Int(key.x), count), default: 0] += 1 }
      // The row's own twins are left out of its value's count, so copies cannot vouch for themselves.
      let conditional = (0..<n).map { r in
        let y = labels[r]
        let size = Double(classCount[y]!)
        let count = max(1, counts[SIMD2(UInt64(y), keys[f][r])]! - (groupSize[Int(groups.ids[r])] - 1))
        guard count < 5, let seen = countOfCounts[SIMD2(y, count)], seen > 0 else { return Double(count) / size }
        // No value seen once more (a continuous column: every value once, none twice): as if one were, so the
        // estimate stays above 0 yet falls with the number of values seen as rarely.
        let next = max(1, countOfCounts[SIMD2(y, count + 1)] ?? 0)
        let adjusted = Double(count + 1) * Double(next) / Double(seen)
        return min(adjusted, Double(count)) / size
      }
      for r in 0..<n { logIndependent[r] += log(conditional[r]) }
      guard features.count >= 2 && n >= 2 else { continue }
      var others = [UInt64](repeating: 0, count: n)
      for r in 0..<n {
        var hasher = ValueHasher(state: 0x8422_2325_CBF2_9CE4 ^ UInt64(labels[r]))
        for g in features.indices where g != f { hasher.combine(bits: keys[g][r]) }
        others[r] = hasher.unfolded
      }
      let sharing = Self.sharing(others)
      for r in 0..<n {
        let p = conditional[r]
        guard p < 1 else { continue }
        let near = Int(sharing[r]) - groupSize[Int(groups.ids[r])]
        guard near > 0 else { continue }
        nearTwin[r] = max(nearTwin[r], Double(near) / Double(n - 1) * p / (1 - p))
      }
    }
    var match = logIndependent.map { exp($0) }
    for r in 0..<n { match[r] = max(match[r], nearTwin[r]) }
    self.match = match.map { min($0, 1) }
  }

  /// Per row, how many rows (itself included) have its key: counted over the keys' sorted order rather than in a
  /// dictionary, which on millions of keys holds many times the keys' own memory.
  static func sharing(_ keys: [UInt64]) -> [Int32] {
    let n = keys.count
    let order = SortedOrder.ascending(keys: keys)
    var sharing = [Int32](repeating: 0, count: n)
    var start = 0
    while start < n {
      var end = start
      while end + 1 < n && keys[Int(order[end + 1])] == keys[Int(order[start])] { end += 1 }
      for position in start...end { sharing[Int(order[position])] = Int32(end - start + 1) }
      start = end + 1
    }
    return sharing
  }

  /// The sums over test rows `cross-fold-duplicates` judges by.
  struct Tally: Sendable {
    var testRows = 0
    /// Expected test rows with a twin, and the variance of that count (a sum of Bernoulli variances).
    var expected = 0.0
    var variance = 0.0
    /// Test rows whose twin chance is below `unlikely` that have a twin, and the sum of those rows' chances.
    var unlikelyTwinned = 0
    var unlikelyExpected = 0.0
  }

  /// Adds one fold: its test rows, those of them with a training twin, and its training-set size.
  func tally(_ tally: inout Tally, test: RowIndices, twinned: [Int], trainingRows: Int) {
    let t = Double(trainingRows)
    func chance(_ row: Int) -> Double {
      let p = min(match[row], 1 - 1e-15)
      return -expm1(t * log1p(-p))
    }
    tally.testRows += test.count
    test.forEachRow { row in
      let q = chance(row)
      tally.expected += q
      tally.variance += q * (1 - q)
      if q < Self.unlikely { tally.unlikelyExpected += q }
    }
    for row in twinned where chance(row) < Self.unlikely { tally.unlikelyTwinned += 1 }
  }

  /// P(X ≥ k) for X Poisson with this mean: 1 when k ≤ 0, 0 when the mean is 0 and k > 0.
  public static func poissonTail(atLeast k: Int, mean: Double) -> Double {
    guard k > 0 else { return 1 }
    guard mean > 0 else { return 0 }
    // Terms from k upwards, in logs so large k neither overflows nor underflows before it matters.
    var term = exp(-mean + Double(k) * log(mean) - lgamma(Double(k) + 1))
    var sum = 0.0
    var j = k
    while term > 0 && (term > sum * 1e-17 || Double(j) < mean) && j < k + 100_000 {
      sum += term
      j += 1
      term *= mean / Double(j)
    }
    return min(1, sum)
  }
}
