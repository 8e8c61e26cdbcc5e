import BenchbookData
import Foundation

/// A k-d tree over stored points, for exact k-nearest-neighbour search in few dimensions.
///
/// Like scikit-learn's `KDTree`, a node holding at least `2·leafSize` points
/// splits at the median of its widest coordinate, so leaves hold `leafSize` to
/// `2·leafSize − 1` points (fewer only when all points are fewer). Each node keeps
/// a tight bounding box. A query descends nearer child first and skips a subtree
/// only when its box cannot hold a point sorting before the current bound under
/// the key (squared distance, stored row): box distance larger than the bound's
/// distance, or equal to it with every row in the subtree larger than its row.
/// The bound is the k-th neighbour so far, or before k are held a seed from the
/// query before (`KBest.seed`), checked afterwards. The box distance is rounded feature by feature exactly as
/// the point distance is, so it never exceeds the distance of a point inside:
/// results are exactly those of `LinearNeighborIndex`, ties included (scikit-learn
/// instead breaks distance ties by its tree layout).
public struct KDTree: SubsetNeighborIndex {
  /// Fewest points a split may leave in a leaf; nodes of `2·leafSize` or more split.
  public let leafSize: Int
  public let pointCount: Int
  public let dimension: Int

  /// Points in tree order (each node owns a contiguous range), row-major.
  private let points: [Double]
  /// Stored row of each point in tree order (4 bytes, not 8: a row's share of a fold's model).
  private let rowOfPoint: [UInt32]
  private let nodes: [Node]
  /// Tight bounding box of each node, `dimension` values per node.
  private let lower: [Double]
  private let upper: [Double]
  /// Longest root-to-leaf path, in edges; sizes the query stack.
  private let depth: Int

  struct Node {
    var start: Int
    var end: Int
    /// Children, or -1 at a leaf.
    var left: Int
    var right: Int
    /// Smallest stored row in the subtree, for pruning distance ties.
    var minRow: Int
    /// Largest stored row in the subtree: with `minRow`, whether every row of it lies in a run a search excludes.
    var maxRow: Int
  }

  /// Builds the tree.
  /// - Parameters:
  ///   - points: one stored point per row, all coordinates finite. Consumed: handed the last reference,
  ///     the tree reorders them in place instead of copying them.
  ///   - leafSize: at least 1; scikit-learn's default is 30.
  /// - Complexity: O(n log n × dimension) expected.
  public init(points matrix: consuming Matrix, leafSize: Int = 30) {
    precondition(leafSize >= 1, "leaf size must be at least 1")
    precondition(matrix.values.allSatisfy(\.isFinite), "k-d tree points must be finite")
    precondition(matrix.rows <= Int(UInt32.max), "a k-d tree holds at most \(UInt32.max) points")
    let d = matrix.columns
    let n = matrix.rows
    self.leafSize = leafSize
    self.pointCount = n
    self.dimension = d

    // Points are moved with their rows while partitioning, so every node's
    // points end up contiguous and later passes read memory in order.
    var points = matrix.values
    _ = consume matrix
    var order = (0..<n).map { UInt32(truncatingIfNeeded: $0) }
    var nodes = [Node]()
    // Top-down these hold each node's *loose* box (the parent's, cut at the
    // split), enough to choose the widest coordinate; bottom-up they are then
    // tightened to the points' own box, which is what pruning needs.
    var lower = [Double]()
    var upper = [Double]()
    var depth = 0
    // Leaves hold at least `leafSize` points, so there are at most 2n / leafSize nodes.
    nodes.reserveCapacity(max(1, 2 * n / leafSize))

    points.withUnsafeMutableBufferPointer { points in
      order.withUnsafeMutableBufferPointer { order in
        nodes.append(Node(start: 0, end: n, left: -1, right: -1, minRow: 0, maxRow: 0))
        lower.append(contentsOf: repeatElement(Double.infinity, count: d))
        upper.append(contentsOf: repeatElement(-Double.infinity, count: d))
        for i in 0..<n {
          for f in 0..<d {
            lower[f] = min(lower[f], points[i * d + f])
            upper[f] = max(upper[f], points[i * d + f])
          }
        }
        var pending = [(node: Int, depth: Int)]()
        pending.append((0, 0))
        while let (id, level) = pending.popLast() {
          depth = max(depth, level)
          let start = nodes[id].start
          let end = nodes[id].end
          guard end - start >= 2 * leafSize else { continue }
          // Loose boxes overstate the width of coordinates not yet split, which
          // can only cost speed: a split that separates nothing is still even.
          var splitFeature = -1
          var widest = 0.0
          for f in 0..<d where upper[id * d + f] - lower[id * d + f] > widest {
            widest = upper[id * d + f] - lower[id * d + f]
            splitFeature = f
          }
          guard splitFeature >= 0 else { continue }  // every point coincides
          let middle = start + (end - start) / 2
          Self.select(points, order, d, splitFeature, start, end, middle)
          let splitValue = points[middle * d + splitFeature]
          let left = nodes.count
          nodes.append(Node(start: start, end: middle, left: -1, right: -1, minRow: 0, maxRow: 0))
          nodes.append(Node(start: middle, end: end, left: -1, right: -1, minRow: 0, maxRow: 0))
          for _ in 0..<2 {
            for f in 0..<d {
              lower.append(lower[id * d + f])
              upper.append(upper[id * d + f])
            }
          }
          upper[left * d + splitFeature] = splitValue
          lower[(left + 1) * d + splitFeature] = splitValue
          nodes[id].left = left
          nodes[id].right = left + 1
          pending.append((left + 1, level + 1))
          pending.append((left, level + 1))
        }

        // Children come after their parent, so a backward sweep sees both
        // children's tight boxes before the parent needs them.
        for id in stride(from: nodes.count - 1, through: 0, by: -1) {
          let node = nodes[id]
          if node.left < 0 {
            var minRow = Int.max
            var maxRow = Int.min
            for f in 0..<d {
              lower[id * d + f] = .infinity
              upper[id * d + f] = -.infinity
            }
            for i in node.start..<node.end {
              minRow = min(minRow, Int(order[i]))
              maxRow = max(maxRow, Int(order[i]))
              for f in 0..<d {
                lower[id * d + f] = min(lower[id * d + f], points[i * d + f])
                upper[id * d + f] = max(upper[id * d + f], points[i * d + f])
              }
            }
            nodes[id].minRow = minRow
            nodes[id].maxRow = maxRow
          } else {
            for f in 0..<d {
              lower[id * d + f] = min(lower[node.left * d + f], lower[node.right * d + f])
              upper[id * d + f] = max(upper[node.left * d + f], upper[node.right * d + f])
            }
            nodes[id].minRow = min(nodes[node.left].minRow, nodes[node.right].minRow)
            nodes[id].maxRow = max(nodes[node.left].maxRow, nodes[node.right].maxRow)
          }
        }
      }
    }

    self.points = points
    self.rowOfPoint = order
    self.nodes = nodes
    self.lower = lower
    self.upper = upper
    self.depth = depth
  }

  /// Every stored row in tree order: a search for stored points near one another in it reads the same leaves.
  public func searchOrder() -> [Int] { rowOfPoint.map(Int.init) }

  /// Number of nodes, leaves included.
  public var nodeCount: Int { nodes.count }

  /// Each point's coordinates written to its given row: one pass over the tree's order, no per-row lookup.
  public func storedPoints() -> [Double] {
    let d = dimension
    return [Double](unsafeUninitializedCapacity: pointCount * d) { out, initialized in
      points.withUnsafeBufferPointer { points in
        for (point, row) in rowOfPoint.enumerated() {
          let from = point * d
          let to = Int(row) * d
          for f in 0..<d { (out.baseAddress! + to + f).initialize(to: points[from + f]) }
        }
      }
      initialized = pointCount * d
    }
  }

  /// Reorders rows `start..<end` of `points` (and `order` with them) so row
  /// `k` holds the point a sort by `feature` would put there, with no larger
  /// value before it and no smaller value after.
  ///
  /// Floyd and Rivest's selection: on a large range it first selects, recursively, within a slice of about
  /// n^(2/3) rows around `k`, so the pivot it then partitions the whole range on lands within a few hundred
  /// rows of the target, and a build passes over its rows about once per level instead of about three times.
  /// The layout is deterministic; any valid one gives the same neighbours (`nearest` orders ties by row).
  private static func select(
    _ points: UnsafeMutableBufferPointer<Double>, _ order: UnsafeMutableBufferPointer<UInt32>, _ d: Int,
    _ feature: Int, _ start: Int, _ end: Int, _ k: Int
  ) {
    // Raw pointers and wrapping arithmetic: indices stay within `start..<end`, and this loop is most of a build.
    let rows = points.baseAddress!
    let keys = rows + feature
    let ids = order.baseAddress!
    @inline(__always) func key(_ i: Int) -> Double { keys[i &* d] }
    @inline(__always) func swapRows(_ i: Int, _ j: Int) {
      swap(&ids[i], &ids[j])
      let a = rows + i &* d
      let b = rows + j &* d
      for f in 0..<d { swap(&a[f], &b[f]) }
    }
    func select(_ left: Int, _ right: Int) {
      var left = left
      var right = right
      while right > left {
        if right - left > 600 {
          let n = Double(right - left + 1)
          let i = Double(k - left + 1)
          let z = log(n)
          let s = 0.5 * exp(2 * z / 3)
          let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i < n / 2 ? -1 : 1)
          let newLeft = max(left, Int(Double(k) - i * s / n + sd))
          let newRight = min(right, Int(Double(k) + (n - i) * s / n + sd))
          select(newLeft, newRight)
        }
        // Partition on the value now at `k`, kept at `left` (or `right`) until the end.
        let pivot = key(k)
        var i = left
        var j = right
        swapRows(left, k)
        if key(right) > pivot { swapRows(right, left) }
        while i < j {
          swapRows(i, j)
          i &+= 1
          j &-= 1
          while key(i) < pivot { i &+= 1 }
          while key(j) > pivot { j &-= 1 }
        }
        if key(left) == pivot {
          swapRows(left, j)
        } else {
          j &+= 1
          swapRows(j, right)
        }
        // Row j now holds the pivot, with nothing larger before it and nothing smaller after.
        if j <= k { left = j &+ 1 }
        if k <= j { right = j &- 1 }
      }
    }
    select(start, end - 1)
  }

  public func nearest(_ queries: Matrix, k: Int) -> NeighborList {
    search(queries, k: k) { _ in true }
  }

  /// The `k` nearest of the stored points whose row `admits` accepts: the neighbours a model fitted on those
  /// rows alone would find, ordered by (distance, row).
  ///
  /// Cross-validation folds are subsets of one dataset, so one tree over every row serves them all.
  /// - Precondition: at least `k` rows are admitted.
  public func nearest(_ queries: Matrix, k: Int, admitting admits: (Int) -> Bool) -> NeighborList {
    search(queries, k: k, admits: admits)
  }

  /// `nearest(_:k:admitting:)` with stored points as the queries: query `i` is the point stored as row
  /// `storedRows[i]`, read from the tree itself. The queries are then searched in the tree's order, found in
  /// one pass over it, instead of in the order of the leaf each first descends to, found by a descent each
  /// (a sixth of a cross-validation fold's search); the order changes speed only.
  /// - Precondition: `storedRows` are distinct stored rows, and at least `k` rows are admitted.
  ///
  /// A subtree whose rows all lie in `excluded` is skipped unvisited: a query among a fold's test rows is near
  /// other test rows, and where those fill whole leaves (the flagship's flights of one route, hour and month)
  /// their distances are never computed. Only rows `admits` rejects (the caller's promise) are skipped, so the
  /// answers are the same.
  public func nearest(
    toStored storedRows: [Int], k: Int, excluding excluded: Range<Int>, admitting admits: (Int) -> Bool
  ) -> NeighborList {
    // Each listed row's slot, found by binary search among the listed rows in ascending order.
    let ascending = zip(storedRows, storedRows.indices).map { (row: $0, slot: $1) }.sorted { $0.row < $1.row }
    for (a, b) in zip(ascending, ascending.dropFirst()) { precondition(a.row < b.row, "row \(a.row) listed twice") }
    precondition(ascending.allSatisfy { (0..<pointCount).contains($0.row) }, "the tree stores rows 0..<\(pointCount)")
    let listed = RowBitSet(ascending.lazy.map(\.row), count: pointCount)
    var order: [Int] = []
    order.reserveCapacity(storedRows.count)
    var pointOfQuery = [Int](repeating: 0, count: storedRows.count)
    for (point, stored) in rowOfPoint.enumerated() {
      let row = Int(stored)
      guard listed.contains(row) else { continue }
      var (low, high) = (0, ascending.count - 1)
      while ascending[low].row != row {
        let middle = (low + high + 1) / 2
        if ascending[middle].row <= row { low = middle } else { high = middle - 1 }
      }
      pointOfQuery[ascending[low].slot] = point
      order.append(ascending[low].slot)
    }
    return search(count: storedRows.count, values: [], k: k, excluded: excluded, admits: admits, order: order) {
      points, _, q in
      points + pointOfQuery[q] * self.dimension
    }
  }

  /// `nearest(_:k:admitting:)` with each seed (`KBest.seed`) scaled by `seedScale` instead of 1 + 1e-9:
  /// for tests, which shrink the seeds below the k-th distance to reach the unseeded search again.
  @_spi(Testing) public func nearest(
    _ queries: Matrix, k: Int, seedScale: Double, admitting admits: (Int) -> Bool
  ) -> NeighborList {
    search(queries, k: k, admits: admits, seedScale: seedScale)
  }

  @inline(__always)
  private func search(_ queries: Matrix, k: Int, admits: (Int) -> Bool, seedScale: Double = Self.seedScale)
    -> NeighborList
  {
    precondition(queries.columns == dimension, "queries have \(queries.columns) columns, points \(dimension)")
    return search(
      count: queries.rows, values: queries.values, k: k, excluded: 0..<0, admits: admits, order: nil,
      seedScale: seedScale
    ) { _, values, q in
      values! + q * self.dimension
    }
  }

  /// A seed's margin over the triangle inequality's bound: a few ulps of rounding in the distances would
  /// otherwise now and then leave the seed a hair below the k-th distance and the query searched twice.
  static let seedScale = 1 + 1e-9

  /// The search itself, for `count` queries. Query `q` is at `query(points, values, q)` (`values` are the
  /// query rows, row-major, when they are not stored points); queries are visited in `order` when given, else
  /// in the order of the leaf each first descends to. Subtrees whose rows all lie in `excluded` are not visited.
  @inline(__always)
  private func search(
    count: Int, values: [Double], k: Int, excluded: Range<Int>, admits: (Int) -> Bool, order givenOrder: [Int]?,
    seedScale: Double = Self.seedScale,
    query queryAt: (UnsafePointer<Double>, UnsafePointer<Double>?, Int) -> UnsafePointer<Double>
  ) -> NeighborList {
    precondition(k >= 1 && k <= pointCount, "k must be in 1...\(pointCount), not \(k)")
    let d = dimension
    var rows = [Int](repeating: 0, count: count * k)
    var distances = [Double](repeating: 0, count: count * k)
    // Each visited internal node pops one entry and pushes two.
    var stack = [(node: Int, bound: Double)](repeating: (0, 0), count: depth + 2)
    var scratch = [KBest.Key](repeating: 0, count: KBest.scratchCount(k: k))
    points.withUnsafeBufferPointer { points in
      rowOfPoint.withUnsafeBufferPointer { rowOfPoint in
        nodes.withUnsafeBufferPointer { nodes in
          lower.withUnsafeBufferPointer { lower in
            upper.withUnsafeBufferPointer { upper in
              values.withUnsafeBufferPointer { qs in
                rows.withUnsafeMutableBufferPointer { outRows in
                  distances.withUnsafeMutableBufferPointer { outDistances in
                    stack.withUnsafeMutableBufferPointer { stack in
                      scratch.withUnsafeMutableBufferPointer { scratch in
                        @inline(__always) func isExcluded(_ node: Node) -> Bool {
                          node.minRow >= excluded.lowerBound && node.maxRow < excluded.upperBound
                        }
                        @inline(__always) func boxDistance(_ query: UnsafePointer<Double>, _ node: Int) -> Double {
                          var sum = 0.0
                          for f in 0..<d {
                            let q = query[f]
                            let lo = lower[node * d + f]
                            let hi = upper[node * d + f]
                            // Branch-free; at most one term is non-zero, so the sum is exact.
                            let gap = max(lo - q, 0) + max(q - hi, 0)
                            sum += gap * gap
                          }
                          return sum
                        }
                        // Queries in the order given (stored points: the tree's own), or else in the order of
                        // the leaf each first descends to: neighbouring queries then walk the same nodes while
                        // they are in cache. Each answer lands in its own slot, so the order changes speed only.
                        let order =
                          givenOrder
                          ?? {
                            var firstLeaf = [Int](repeating: 0, count: count)
                            for q in 0..<count {
                              let query = queryAt(points.baseAddress!, qs.baseAddress, q)
                              var id = 0
                              while nodes[id].left >= 0 {
                                let node = nodes[id]
                                id =
                                  boxDistance(query, node.left) <= boxDistance(query, node.right)
                                  ? node.left : node.right
                              }
                              firstLeaf[q] = id
                            }
                            return (0..<count).sorted {
                              firstLeaf[$0] != firstLeaf[$1] ? firstLeaf[$0] < firstLeaf[$1] : $0 < $1
                            }
                          }()
                        /// Finds the k nearest of `query` into `best`, pruning by its bound.
                        @inline(__always) func descend(_ query: UnsafePointer<Double>, into best: inout KBest) {
                          var top = 0
                          if !isExcluded(nodes[0]) {
                            stack[0] = (0, boxDistance(query, 0))
                            top = 1
                          }
                          while top > 0 {
                            top -= 1
                            let (id, bound) = stack[top]
                            if best.isFull {
                              let worst = best.worstSquaredDistance
                              if bound > worst || (bound == worst && nodes[id].minRow > best.worstRow) { continue }
                            }
                            let node = nodes[id]
                            if node.left < 0 {
                              for p in node.start..<node.end {
                                let d2 = squaredDistance(query, points.baseAddress! + p * d, d)
                                if d2 > best.worstSquaredDistance { continue }
                                let row = Int(rowOfPoint[p])
                                if best.admits(d2, row) && admits(row) { best.insert(d2, row) }
                              }
                              continue
                            }
                            // An excluded child is left out, as if its bound were beyond every neighbour.
                            let leftSkipped = isExcluded(nodes[node.left])
                            let rightSkipped = isExcluded(nodes[node.right])
                            if leftSkipped || rightSkipped {
                              if !leftSkipped {
                                stack[top] = (node.left, boxDistance(query, node.left))
                                top += 1
                              } else if !rightSkipped {
                                stack[top] = (node.right, boxDistance(query, node.right))
                                top += 1
                              }
                              continue
                            }
                            let leftBound = boxDistance(query, node.left)
                            let rightBound = boxDistance(query, node.right)
                            if leftBound <= rightBound {
                              stack[top] = (node.right, rightBound)
                              stack[top + 1] = (node.left, leftBound)
                            } else {
                              stack[top] = (node.left, leftBound)
                              stack[top + 1] = (node.right, rightBound)
                            }
                            top += 2
                          }
                        }
                        // A search starts from a bound taken from the query before it (`KBest.seed`): the
                        // previous query's k neighbours, all admitted, lie within its k-th distance of it, so within
                        // that plus the gap between the two queries of this one. Where queries come a short way apart
                        // (stored points in tree order, as the tuned kNN's shared pass asks for them), the seed is
                        // close to the k-th distance and prunes from the first leaf on; a looser one gives way to
                        // the first k's bound. A seed rounded too small leaves fewer than k held, and the query is
                        // searched again unseeded: the neighbours are the same either way.
                        var previous: (query: UnsafePointer<Double>, kthSquaredDistance: Double)?
                        for q in order {
                          let query = queryAt(points.baseAddress!, qs.baseAddress, q)
                          func fresh() -> KBest {
                            KBest(
                              rows: outRows.baseAddress! + q * k, squaredDistances: outDistances.baseAddress! + q * k,
                              k: k, scratch: scratch.baseAddress)
                          }
                          var best = fresh()
                          if let previous {
                            let radius =
                              previous.kthSquaredDistance.squareRoot()
                              + squaredDistance(query, previous.query, d).squareRoot()
                            let bound = radius * radius * seedScale
                            if bound.isFinite { best.seed(squaredDistance: bound) }
                          }
                          descend(query, into: &best)
                          if !best.holdsK {
                            best = fresh()
                            descend(query, into: &best)
                          }
                          best.finish()
                          previous = (query, outDistances[q * k + k - 1])
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return NeighborList(k: k, rows: rows, squaredDistances: distances)
  }
}
