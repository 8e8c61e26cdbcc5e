import BenchbookData

/// A set of stored points that answers k-nearest-neighbour queries.
///
/// Every index orders neighbours by the key (squared Euclidean distance, stored
/// row), so distance ties go to the lower stored row. Because the key is a total
/// order, the k nearest points are unique, and every index returns exactly the
/// same neighbours with bit-identical distances; only the speed differs.
public protocol NeighborIndex: Sendable {
  /// Number of stored points.
  var pointCount: Int { get }
  /// Number of coordinates per point.
  var dimension: Int { get }

  /// The `k` nearest stored points of every row of `queries`.
  /// - Precondition: `1 <= k <= pointCount` and `queries.columns == dimension`.
  func nearest(_ queries: Matrix, k: Int) -> NeighborList

  /// Every stored coordinate, row-major in the order the points were given: an index keeps the only copy of its
  /// points, and this reads them back (for an export, or a model's stored rows).
  func storedPoints() -> [Double]
}

/// An index that also searches among a subset of its points: one index over every row of a dataset then
/// stands for the index of any fold's training rows (`KDTree`, `BruteForceNeighborIndex`).
public protocol SubsetNeighborIndex: NeighborIndex {
  /// The `k` nearest of the stored points whose row `admits` accepts: the neighbours an index over those rows
  /// alone would find, ordered by (distance, row), with rows numbered as stored here.
  /// - Precondition: at least `k` rows are admitted.
  func nearest(_ queries: Matrix, k: Int, admitting admits: (Int) -> Bool) -> NeighborList

  /// `nearest(_:k:admitting:)` with stored points as the queries: query `i` is the point stored as row
  /// `storedRows[i]`, read from the index itself.
  /// - Precondition: `storedRows` are distinct stored rows, and at least `k` rows are admitted.
  /// - Parameter excluded: rows `admits` rejects, every one of them: a promise an index may use to skip them
  ///   without asking (a fold's test block among rows stored in dataset order, a forward split's future among rows
  ///   stored in time order). An empty range promises nothing.
  func nearest(toStored storedRows: [Int], k: Int, excluding excluded: Range<Int>, admitting admits: (Int) -> Bool)
    -> NeighborList

  /// Every stored row, in the order queries for stored points are answered fastest.
  func searchOrder() -> [Int]
}

extension SubsetNeighborIndex {
  /// Every stored row, in the order queries for stored points are answered fastest: row order, unless the index
  /// keeps its points in another (`KDTree`'s, where neighbouring rows share the leaves a search reads).
  public func searchOrder() -> [Int] { Array(0..<pointCount) }

  /// `nearest(toStored:k:excluding:admitting:)` with no run of rows promised excluded.
  public func nearest(toStored storedRows: [Int], k: Int, admitting admits: (Int) -> Bool) -> NeighborList {
    nearest(toStored: storedRows, k: k, excluding: 0..<0, admitting: admits)
  }
}

/// The neighbour search structures Benchbook builds.
public enum NeighborIndexKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// `KDTree`.
  case kdTree = "kd-tree"
  /// No tree: every query measures every stored point (`BruteForceNeighborIndex`, distances from BLAS then
  /// checked exactly). Core ML calls this a linear index, and Benchbook's exports write it as one.
  case linear

  /// Whether fewer than 30% of `x`'s values are non-zero (one-hot columns over many categories, say): the
  /// data scikit-learn's `ColumnTransformer` would pass on as a sparse matrix (its `sparse_threshold`, 0.3),
  /// for which its `auto` takes brute force.
  public static func isSparse(_ x: Matrix) -> Bool {
    guard !x.values.isEmpty else { return false }
    var nonZero = 0
    x.values.withUnsafeBufferPointer { values in
      for value in values where value != 0 { nonZero += 1 }
    }
    return Double(nonZero) < 0.3 * Double(x.values.count)
  }

  /// An index of this kind over `points`.
  /// - Parameters:
  ///   - points: consumed; handed the last reference, the index keeps them without a copy.
  ///   - leafSize: a kd-tree's leaf size (unused by brute force).
  public func build(_ points: consuming Matrix, leafSize: Int) -> any SubsetNeighborIndex {
    switch self {
    case .kdTree: KDTree(points: points, leafSize: leafSize)
    case .linear: BruteForceNeighborIndex(points: points)
    }
  }
}

/// The k nearest neighbours of each query row, nearest first.
public struct NeighborList: Sendable, Equatable {
  /// Neighbours per query.
  public let k: Int
  /// Stored row of each neighbour, `k` per query, row-major.
  public let rows: [Int]
  /// Squared Euclidean distance of each neighbour, aligned with `rows`.
  ///
  /// Summed over features in column order, `Σ (q_f − x_f)²`, the same formula
  /// in every index so results are bit-identical.
  public let squaredDistances: [Double]

  public init(k: Int, rows: [Int], squaredDistances: [Double]) {
    precondition(k >= 1 && rows.count == squaredDistances.count && rows.count % k == 0, "malformed neighbour list")
    self.k = k
    self.rows = rows
    self.squaredDistances = squaredDistances
  }

  /// Number of queries answered.
  public var queryCount: Int { rows.count / k }

  /// Stored rows of one query's neighbours, nearest first.
  public func rows(ofQuery query: Int) -> ArraySlice<Int> {
    rows[(query * k)..<((query + 1) * k)]
  }

  /// Squared distances of one query's neighbours, nearest first.
  public func squaredDistances(ofQuery query: Int) -> ArraySlice<Double> {
    squaredDistances[(query * k)..<((query + 1) * k)]
  }
}

/// `Σ (a_f − b_f)²` over `count` features, summed in feature order.
///
/// Every index must use this one function: pruning bounds in the kd-tree rely
/// on it being monotone in each `|a_f − b_f|`, and equality across indexes on
/// it being the same rounding sequence.
@inline(__always)
func squaredDistance(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ count: Int) -> Double {
  var sum = 0.0
  for f in 0..<count {
    let diff = a[f] - b[f]
    sum += diff * diff
  }
  return sum
}

/// The k best candidates so far, ordered by the key (squared distance, row), finished into caller-owned
/// storage.
///
/// Small k (the default 5) keeps the list sorted, where shifting a short array beats anything else. Large k
/// (tuning asks for 125, a neighbour list shared by many splits for 258) collects candidates unsorted in a
/// scratch buffer of 2k: once it is full, one selection keeps the k best and tightens the bound, so an insert
/// costs O(1) amortised, and `finish` sorts the k once. Both keep exactly the k smallest keys seen, because
/// the bound is always the key of a candidate with at least k candidates, itself included, at or before it.
struct KBest {
  /// One candidate of the large-k buffer as one 128-bit integer: the squared distance's bits (which order as
  /// non-negative distances do) above the row. Comparing two keys is then an integer subtraction whose result the
  /// selection and the sort use without a branch: the keys of a neighbour list come nearly at random, and
  /// branches on their comparisons were mispredicted half the time.
  typealias Key = UInt128

  @inline(__always)
  static func key(_ squaredDistance: Double, _ row: Int) -> Key {
    Key(squaredDistance.bitPattern) << 64 | Key(UInt64(truncatingIfNeeded: row))
  }

  @inline(__always)
  static func squaredDistance(of key: Key) -> Double { Double(bitPattern: UInt64(truncatingIfNeeded: key >> 64)) }

  @inline(__always)
  static func row(of key: Key) -> Int { Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: key)) }

  let rows: UnsafeMutablePointer<Int>
  let squaredDistances: UnsafeMutablePointer<Double>
  let k: Int
  /// Candidates held: in the output (small k) or in `scratch` (large k).
  private(set) var count = 0
  /// Squared distance of a candidate with k candidates at or before it; +∞ until k are held. Nothing after
  /// it can enter the k best.
  private(set) var worstSquaredDistance = Double.infinity
  /// Row of that candidate; `Int.max` until k are held.
  private(set) var worstRow = Int.max
  /// Above this k the candidates collect in `scratch`.
  static let bufferThreshold = 24
  private let scratch: UnsafeMutablePointer<Key>?

  /// - Parameter scratch: room for `2·k` candidates when `k > bufferThreshold`, reused from query to query.
  init(
    rows: UnsafeMutablePointer<Int>, squaredDistances: UnsafeMutablePointer<Double>, k: Int,
    scratch: UnsafeMutablePointer<Key>?
  ) {
    self.rows = rows
    self.squaredDistances = squaredDistances
    self.k = k
    self.scratch = k > Self.bufferThreshold ? scratch : nil
    precondition(k <= Self.bufferThreshold || scratch != nil, "large k needs a scratch buffer")
  }

  /// Room `scratch` must have for `k`.
  static func scratchCount(k: Int) -> Int { k > bufferThreshold ? 2 * k : 0 }

  var isFull: Bool { worstSquaredDistance != .infinity || worstRow != Int.max }

  /// Whether at least k candidates are held: always once a search has met k points, but after a seed only if the
  /// seed was no smaller than the k-th nearest's squared distance.
  var holdsK: Bool { count >= k }

  /// Starts a search with the bound `squaredDistance`, every row admitted at or below it: a guess at the k-th
  /// nearest's squared distance that prunes from the first leaf on, where an unseeded search admits every point
  /// until k are held and then bounds by the farthest of them. The k nearest are found exactly whenever the guess
  /// is at least the k-th nearest's squared distance, which `holdsK` tells afterwards: at least k points then lie
  /// at or below it, and every one of the k nearest is admitted.
  /// - Precondition: nothing inserted yet.
  mutating func seed(squaredDistance: Double) {
    precondition(count == 0, "a seed starts a search")
    worstSquaredDistance = squaredDistance
    worstRow = Int.max
  }

  /// Whether (d2, row) may still enter the list: it sorts before the bound.
  @inline(__always)
  func admits(_ d2: Double, _ row: Int) -> Bool {
    d2 < worstSquaredDistance || (d2 == worstSquaredDistance && row < worstRow)
  }

  /// Inserts a candidate that `admits` accepted.
  @inline(__always)
  mutating func insert(_ d2: Double, _ row: Int) {
    guard let scratch else {
      insertSorted(d2, row)
      return
    }
    if count == 2 * k { keepBest(scratch) }
    scratch[count] = Self.key(d2, row)
    count += 1
    if count == k {
      // The first k (an insert reaches k only once: a selection leaves k, and the insert after it makes k + 1): the
      // last of them bounds the k best. Each was admitted at or below any seed, so this bound is at least as tight.
      var worst = scratch[0]
      for i in 1..<k { worst = max(worst, scratch[i]) }
      setBound(worst)
    }
  }

  @inline(__always)
  private mutating func setBound(_ key: Key) {
    worstSquaredDistance = Self.squaredDistance(of: key)
    worstRow = Self.row(of: key)
  }

  @inline(__always)
  private mutating func insertSorted(_ d2: Double, _ row: Int) {
    var position = count < k ? count : k - 1
    if count < k { count += 1 }
    while position > 0 {
      let previous = squaredDistances[position - 1]
      guard previous > d2 || (previous == d2 && rows[position - 1] > row) else { break }
      squaredDistances[position] = previous
      rows[position] = rows[position - 1]
      position -= 1
    }
    squaredDistances[position] = d2
    rows[position] = row
    if count == k {
      worstSquaredDistance = squaredDistances[k - 1]
      worstRow = rows[k - 1]
    }
  }

  /// Keeps the k best of the buffer (unsorted) and makes the k-th of them the bound.
  private mutating func keepBest(_ scratch: UnsafeMutablePointer<Key>) {
    Self.select(scratch, count: count, k - 1)
    count = k
    setBound(scratch[k - 1])
  }

  /// Leaves the candidates sorted nearest first in `rows` and `squaredDistances`.
  mutating func finish() {
    guard let scratch else { return }
    if count > k { keepBest(scratch) }
    let sorted = Self.sort(scratch, count: count)
    for i in 0..<count {
      rows[i] = Self.row(of: sorted[i])
      squaredDistances[i] = Self.squaredDistance(of: sorted[i])
    }
  }

  /// An optimal sorting network for 8 values (19 compare-exchanges, depth 6).
  private static let sortingNetwork8: [(Int, Int)] = [
    (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7), (0, 1), (2, 3), (4, 5), (6, 7),
    (2, 4), (3, 5), (1, 4), (3, 6), (1, 2), (3, 4), (5, 6),
  ]

  /// Sorts the keys `keys[0..<count]`, using `keys[count..<2·count]` as spare room, and returns where the sorted
  /// keys are: at `keys` or in the spare room.
  ///
  /// A bottom-up merge sort that picks each next key by a comparison's result, not by a branch: a quicksort's
  /// mispredicted branches made this sort a sixth of a tuned kNN's time. Keys are distinct (rows are), so every
  /// correct sort gives this order.
  private static func sort(_ keys: UnsafeMutablePointer<Key>, count: Int) -> UnsafeMutablePointer<Key> {
    guard count > 1 else { return keys }
    // Runs of 8 first, each by a sorting network: its 19 compare-exchanges do not wait on one another, where
    // the merge's steps do, and it spares the merge three of its passes.
    var start = 0
    while start &+ 8 <= count {
      for (a, b) in sortingNetwork8 {
        let x = keys[start &+ a]
        let y = keys[start &+ b]
        keys[start &+ a] = min(x, y)
        keys[start &+ b] = max(x, y)
      }
      start &+= 8
    }
    // The last run, shorter than 8, by insertion.
    insertionSort(keys, start..<count)
    var source = keys
    var target = keys + count
    var width = 8
    while width < count {
      var start = 0
      while start < count {
        let middle = min(start &+ width, count)
        let end = min(start &+ 2 &* width, count)
        guard middle < end else {
          for o in start..<end { target[o] = source[o] }
          break
        }
        if (end &- middle) &* shortRunRatio <= middle &- start {
          mergeShortRun(source, start, middle, end, into: target)
          start = end
          continue
        }
        // Both ends at once: the front takes the smallest half of the outputs and the back the largest, two
        // chains of dependent steps that run side by side instead of one twice as long. The left run is never
        // shorter than the right, so only the right run can run out before its end's last step: a step checks
        // that, and reads an in-bounds key when it has (keys are distinct, so the halves never overlap).
        var i = start
        var j = middle
        var o = start
        var iBack = middle &- 1
        var jBack = end &- 1
        var oBack = end &- 1
        @inline(__always) func frontStep() {
          let left = source[i]
          let right = source[min(j, end &- 1)]
          let takesRight = j < end && right < left
          target[o] = takesRight ? right : left
          j &+= takesRight ? 1 : 0
          i &+= takesRight ? 0 : 1
          o &+= 1
        }
        @inline(__always) func backStep() {
          let left = source[iBack]
          let right = source[jBack]
          let takesRight = jBack >= middle && right > left
          target[oBack] = takesRight ? right : left
          jBack &-= takesRight ? 1 : 0
          iBack &-= takesRight ? 0 : 1
          oBack &-= 1
        }
        for _ in 0..<((end &- start) &>> 1) {
          frontStep()
          backStep()
        }
        if (end &- start) & 1 == 1 { backStep() }
        start = end
      }
      swap(&source, &target)
      width &*= 2
    }
    return source
  }

  /// A right run at most this fraction of the left one's length is merged by `mergeShortRun`.
  private static let shortRunRatio = 16

  /// Merges the sorted runs `source[start..<middle]` and a short `source[middle..<end]` into `target[start..<end]`:
  /// each key of the short run is placed by a binary search of the long one, and the long run's keys between go
  /// across as blocks. The last run of a list whose length is not a power of two times 8 can be short (258 = 256 + 2,
  /// the tuned kNN's shared list), and a merge step by step would walk the whole long run for it.
  private static func mergeShortRun(
    _ source: UnsafeMutablePointer<Key>, _ start: Int, _ middle: Int, _ end: Int,
    into target: UnsafeMutablePointer<Key>
  ) {
    var i = start
    var o = start
    for j in middle..<end {
      let key = source[j]
      // The first key of the long run's rest after `key`.
      var (low, high) = (i, middle)
      while low < high {
        let half = low &+ (high &- low) &>> 1
        if source[half] < key { low = half &+ 1 } else { high = half }
      }
      (target + o).update(from: source + i, count: low &- i)
      o &+= low &- i
      target[o] = key
      o &+= 1
      i = low
    }
    (target + o).update(from: source + i, count: middle &- i)
  }

  /// Reorders `keys[0..<count]` so position `target` holds the key a sort would put there, none after it before
  /// it and none before it after it (keys are distinct).
  ///
  /// Quickselect with a median-of-three pivot, partitioned as Lomuto's scheme is when written without a branch:
  /// each key is swapped with the first key not yet known smaller than the pivot, and that boundary moves on by
  /// the comparison's result. The keys between the boundary and the scan are all at or after the pivot, so a swap
  /// that does not move the boundary only reorders them.
  private static func select(_ keys: UnsafeMutablePointer<Key>, count: Int, _ target: Int) {
    var low = 0
    var high = count &- 1
    while high &- low > 8 {
      // The median of the first, middle and last keys goes last, as the pivot.
      let middle = low &+ (high &- low) &>> 1
      let (a, b, c) = (keys[low], keys[middle], keys[high])
      let median = max(min(a, b), min(max(a, b), c))
      if median == a {
        keys[low] = c
      } else if median == b {
        keys[middle] = c
      }
      keys[high] = median
      var boundary = low
      var i = low
      while i < high {
        let key = keys[i]
        keys[i] = keys[boundary]
        keys[boundary] = key
        // The comparison's bit itself: written as a choice of 1 or 0, it was compiled to a branch.
        boundary &+= Int(unsafeBitCast(key < median, to: UInt8.self))
        i &+= 1
      }
      keys[high] = keys[boundary]
      keys[boundary] = median
      if target == boundary { return }
      if target < boundary { high = boundary &- 1 } else { low = boundary &+ 1 }
    }
    // The last few by insertion: every key before `low` sorts before them and every key after `high` after.
    insertionSort(keys, low..<(high &+ 1))
  }

  /// Sorts `keys[range]` by insertion: for the few keys a sorting network or a partition leaves.
  @inline(__always)
  private static func insertionSort(_ keys: UnsafeMutablePointer<Key>, _ range: Range<Int>) {
    guard range.count > 1 else { return }
    for i in (range.lowerBound &+ 1)..<range.upperBound {
      let value = keys[i]
      var j = i
      while j > range.lowerBound && keys[j &- 1] > value {
        keys[j] = keys[j &- 1]
        j &-= 1
      }
      keys[j] = value
    }
  }
}
