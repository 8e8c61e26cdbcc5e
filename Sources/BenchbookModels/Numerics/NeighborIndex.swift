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
}

/// The neighbour search structures Benchbook builds.
public enum NeighborIndexKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// `KDTree`.
  case kdTree = "kd-tree"
  /// `LinearNeighborIndex`.
  case linear
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

/// The k best candidates so far, in caller-owned storage, ordered by the key
/// (squared distance, row).
///
/// Small k (the default 5) keeps the list sorted, where shifting a short array
/// beats a heap. Large k (tuning asks for 125) keeps a max-heap, so an insert
/// costs O(log k) instead of O(k), and `finish` sorts it once. Both hold the
/// same k candidates, so the finished list is the same.
struct KBest {
  let rows: UnsafeMutablePointer<Int>
  let squaredDistances: UnsafeMutablePointer<Double>
  let k: Int
  private(set) var count = 0
  /// Squared distance of the current k-th candidate; +∞ until k are held.
  private(set) var worstSquaredDistance = Double.infinity
  /// Row of the current k-th candidate; `Int.max` until k are held.
  private(set) var worstRow = Int.max
  /// Above this k the candidates form a heap.
  static let heapThreshold = 24
  private let usesHeap: Bool

  init(rows: UnsafeMutablePointer<Int>, squaredDistances: UnsafeMutablePointer<Double>, k: Int) {
    self.rows = rows
    self.squaredDistances = squaredDistances
    self.k = k
    usesHeap = k > Self.heapThreshold
  }

  var isFull: Bool { count == k }

  /// Whether (d2, row) would enter the list: it sorts before the k-th candidate.
  @inline(__always)
  func admits(_ d2: Double, _ row: Int) -> Bool {
    count < k || d2 < worstSquaredDistance || (d2 == worstSquaredDistance && row < worstRow)
  }

  /// Whether candidate `i` sorts after candidate `j`.
  @inline(__always)
  private func after(_ i: Int, _ j: Int) -> Bool {
    squaredDistances[i] > squaredDistances[j] || (squaredDistances[i] == squaredDistances[j] && rows[i] > rows[j])
  }

  @inline(__always)
  private func swapAt(_ i: Int, _ j: Int) {
    let (d, r) = (squaredDistances[i], rows[i])
    squaredDistances[i] = squaredDistances[j]
    rows[i] = rows[j]
    squaredDistances[j] = d
    rows[j] = r
  }

  /// Inserts a candidate that `admits` accepted, dropping the k-th if full.
  @inline(__always)
  mutating func insert(_ d2: Double, _ row: Int) {
    if usesHeap {
      insertIntoHeap(d2, row)
      return
    }
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

  /// Max-heap on the key: the worst candidate at the root.
  private mutating func insertIntoHeap(_ d2: Double, _ row: Int) {
    if count < k {
      var child = count
      squaredDistances[child] = d2
      rows[child] = row
      count += 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard after(child, parent) else { break }
        swapAt(child, parent)
        child = parent
      }
    } else {
      squaredDistances[0] = d2
      rows[0] = row
      siftDown(within: count)
    }
    if count == k {
      worstSquaredDistance = squaredDistances[0]
      worstRow = rows[0]
    }
  }

  /// Leaves the candidates sorted nearest first (a heap sort when they form a heap).
  mutating func finish() {
    guard usesHeap else { return }
    var end = count
    while end > 1 {
      end -= 1
      swapAt(0, end)
      siftDown(within: end)
    }
  }

  /// Restores the heap order of the first `end` candidates after the root changed.
  @inline(__always)
  private func siftDown(within end: Int) {
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < end else { break }
      var largest = left
      if left + 1 < end && after(left + 1, left) { largest = left + 1 }
      guard after(largest, parent) else { break }
      swapAt(largest, parent)
      parent = largest
    }
  }
}
