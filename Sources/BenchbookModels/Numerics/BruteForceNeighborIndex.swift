import BenchbookData
import COpenBLAS

/// Brute force with distances from BLAS: every query against every stored point, as
/// ‖q‖² − 2q·x + ‖x‖² with the products from one `sgemm` per block, then an exact re-check near the k-th
/// neighbour.
///
/// The BLAS form rounds differently from `squaredDistance` (in single precision, far more so, and it cancels
/// when points are far from the origin relative to their spread), so it only screens. Each approximate
/// distance Ã comes with a proven bound E on |Ã − D|, D being the exact `squaredDistance` the other indexes
/// use (`errorFactor` derives it); a point is re-checked exactly unless Ã − E exceeds the exact distance of
/// the current k-th neighbour, and the k nearest are kept by the key (exact distance, stored row) in `KBest`.
/// Every point of the true k nearest has Ã − E ≤ D ≤ that k-th distance, ties included, so the answer is
/// exactly `LinearNeighborIndex`'s and `KDTree`'s, bit for bit; only the rows near the boundary (exact ties on
/// integer or one-hot data, or near-ties within E, about 1e-5 of the norms in 200 columns) cost an exact
/// distance. Single precision doubles BLAS's speed, and the re-checks it adds are few, so on wide data the
/// search is markedly faster than in double.
///
/// Coordinates are centred on the stored points' column means before the products when the points lie
/// farther from the origin than they spread (raw measurements, say), which keeps the norms, and so E, small;
/// standardised data are taken as stored. The exact re-check reads the points as given. Memory: the points,
/// one norm per point, and per search the queries in single precision and a block of
/// `queryBlock × pointBlock` products (512 kB).
/// - Complexity: O(queries × points × dimension) per `nearest` call, at BLAS speed.
public struct BruteForceNeighborIndex: SubsetNeighborIndex {
  /// The stored points, in the order given.
  public let points: Matrix
  /// Column means of the points when the products are taken on centred coordinates, else `nil`: distances
  /// do not change when both sides shift by them.
  private let center: [Double]?
  /// (1 − c)·‖x̃‖² of each point x̃ as the products see it (`c` = `errorFactor`): its share of the lower bound.
  private let loweredNorms: [Double]
  /// Whether every such norm is finite and far from overflow; else every query takes the exact scan.
  private let screens: Bool

  /// Queries screened per product. OpenBLAS packs a call's block of points afresh each time, so each point is
  /// packed once per block of queries: 512 queries make that a small share (128 leave it a noticeable one of the
  /// search on wide data).
  static let queryBlock = 512

  /// Points screened per product: 512 × 256 products are written and scanned while in cache. On wide and narrow
  /// data alike, blocks of 128 to 1,024 points and 128 to 512 queries perform about the same; this one is best.
  static let pointBlock = 256

  /// - Parameter points: consumed; handed the last reference, the index stores them without a copy.
  public init(points: consuming Matrix) {
    let n = points.rows
    let d = points.columns
    var mean = [Double](repeating: 0, count: d)
    var norms = [Double](repeating: 0, count: n)
    points.values.withUnsafeBufferPointer { x in
      for r in 0..<n {
        for f in 0..<d { mean[f] += x[r * d + f] }
      }
      if n > 0 {
        for f in 0..<d { mean[f] /= Double(n) }
      }
      for r in 0..<n {
        var norm = 0.0
        for f in 0..<d {
          let v = x[r * d + f] - mean[f]
          norm += v * v
        }
        norms[r] = norm
      }
    }
    // Centre when the offset outweighs the spread: otherwise the norms would at most double, and the bound too.
    var offset = 0.0
    for f in 0..<d { offset += mean[f] * mean[f] }
    let spread = norms.reduce(0, +) / Double(max(1, n))
    let centres = offset > spread
    if !centres {
      points.values.withUnsafeBufferPointer { x in
        for r in 0..<n {
          var norm = 0.0
          for f in 0..<d { norm += x[r * d + f] * x[r * d + f] }
          norms[r] = norm
        }
      }
    }
    let factor = 1 - Self.errorFactor(dimension: d)
    self.screens = norms.allSatisfy { $0 <= Self.largestNorm }
    self.loweredNorms = norms.map { factor * $0 }
    self.center = centres ? mean : nil
    self.points = points
  }

  public func storedPoints() -> [Double] { points.values }

  public var pointCount: Int { points.rows }
  public var dimension: Int { points.columns }

  /// c such that |Ã − D| ≤ c·(‖q̃‖² + ‖x̃‖²) in `dimension` coordinates, with room for the rounding of
  /// the test itself.
  ///
  /// The products are taken in single precision (twice BLAS's speed in double), the rest in double. With
  /// u = 2⁻²⁴ and a = ‖q̃‖, b = ‖x̃‖ (the vectors as the products see them, centred or as given, in double):
  /// rounding each coordinate to single moves q̃·x̃ by at most (2u + u²)·a·b, and `sgemm`'s sum is within γ_d·a·b
  /// of the rounded vectors' product in any order, fused or not (γ_d = du/(1 − du)); so −2q̃·x̃ is within
  /// 2(d + 2)·u·a·b ≤ (d + 2)·u·(a² + b²), to first order. The double-precision rest, with v = 2⁻⁵³: the norms
  /// within γ_d of their squares, the additions 2v(a + b)²; centring, if taken, moves ‖q̃ − x̃‖² from ‖q − x‖² by at
  /// most 2v(a + b)², and `squaredDistance` (D) is within γ_{d+2} of ‖q − x‖² ≤ (a + b)²: (4d + 18)·v·(a² + b²)
  /// with the test's own additions. c = 2(d + 2)·u + 8(d + 8)·v is about twice what this needs. Coordinates and
  /// products below single precision's normal range (2⁻¹²⁶) lose relative accuracy; `underflowSlack` and the
  /// last term of c cover that.
  static func errorFactor(dimension d: Int) -> Double {
    2 * Double(d + 2) * Double(Float.ulpOfOne / 2) + 8 * Double(d + 8) * (Double.ulpOfOne / 2)
      + Double(8 * (d + 8)) * Double(Float.leastNormalMagnitude)
  }

  /// An absolute margin for products below single precision's normal range.
  static func underflowSlack(dimension d: Int) -> Double { Double(8 * (d + 8)) * Double(Float.leastNormalMagnitude) }

  /// Norms above this take the exact scan: coordinates, products and sums stay far from single precision's
  /// overflow (3.4e38).
  static let largestNorm = 1e36

  public func nearest(_ queries: Matrix, k: Int) -> NeighborList {
    search(queries, k: k) { _ in true }
  }

  /// The `k` nearest of the stored points whose row `admits` accepts, ordered by (distance, row): the
  /// neighbours the same index over those rows alone would find, with rows numbered as here.
  /// - Precondition: at least `k` rows are admitted.
  public func nearest(_ queries: Matrix, k: Int, admitting admits: (Int) -> Bool) -> NeighborList {
    search(queries, k: k, admits: admits)
  }

  /// `nearest(_:k:admitting:)` with the stored points of rows `storedRows` as the queries. The excluded run is
  /// left to `admits`: every stored point is measured in blocks by BLAS whatever its row.
  public func nearest(
    toStored storedRows: [Int], k: Int, excluding excluded: Range<Int>, admitting admits: (Int) -> Bool
  ) -> NeighborList {
    search(points.selecting(rows: storedRows), k: k, admits: admits)
  }

  private func search(_ queries: Matrix, k: Int, admits: (Int) -> Bool) -> NeighborList {
    precondition(k >= 1 && k <= pointCount, "k must be in 1...\(pointCount), not \(k)")
    precondition(queries.columns == dimension, "queries have \(queries.columns) columns, points \(dimension)")
    let m = queries.rows
    var rows = [Int](repeating: 0, count: m * k)
    var distances = [Double](repeating: 0, count: m * k)
    guard m > 0 else { return NeighborList(k: k, rows: rows, squaredDistances: distances) }
    rows.withUnsafeMutableBufferPointer { outRows in
      distances.withUnsafeMutableBufferPointer { outDistances in
        queries.values.withUnsafeBufferPointer { qs in
          if screens && dimension > 0 {
            screened(
              qs.baseAddress!, count: m, k: k, admits: admits, rows: outRows.baseAddress!,
              distances: outDistances.baseAddress!)
          } else {
            for q in 0..<m {
              exactScan(
                qs.baseAddress! + q * dimension, k: k, admits: admits, rows: outRows.baseAddress! + q * k,
                distances: outDistances.baseAddress! + q * k)
            }
          }
        }
      }
    }
    return NeighborList(k: k, rows: rows, squaredDistances: distances)
  }

  /// `LinearNeighborIndex`'s scan for one query: every admitted point's exact distance.
  private func exactScan(
    _ query: UnsafePointer<Double>, k: Int, admits: (Int) -> Bool, rows: UnsafeMutablePointer<Int>,
    distances: UnsafeMutablePointer<Double>
  ) {
    let d = dimension
    var scratch = [KBest.Key](repeating: 0, count: KBest.scratchCount(k: k))
    points.values.withUnsafeBufferPointer { data in
      scratch.withUnsafeMutableBufferPointer { scratch in
        var best = KBest(rows: rows, squaredDistances: distances, k: k, scratch: scratch.baseAddress)
        for i in 0..<pointCount where admits(i) {
          let d2 = squaredDistance(query, data.baseAddress! + i * d, d)
          if best.admits(d2, i) { best.insert(d2, i) }
        }
        best.finish()
      }
    }
  }

  /// The screened search of `count` queries at `queries` (row-major), answers written to `rows` and `distances`.
  private func screened(
    _ queries: UnsafePointer<Double>, count m: Int, k: Int, admits: (Int) -> Bool, rows: UnsafeMutablePointer<Int>,
    distances: UnsafeMutablePointer<Double>
  ) {
    let d = dimension
    let n = pointCount
    let c = Self.errorFactor(dimension: d)
    let u = Double.ulpOfOne / 2
    let underflowSlack = Self.underflowSlack(dimension: d)
    let queryBlock = min(Self.queryBlock, m)
    let pointBlock = Self.pointBlock
    // The queries as the products see them (centred, or as given; in single precision), their lowered norms
    // (from the double values) and whether the screen can bound them.
    var seen = [Float](repeating: 0, count: m * d)
    var seenBlock = [Float](repeating: 0, count: pointBlock * d)
    var products = [Float](repeating: 0, count: queryBlock * pointBlock)
    var loweredQuery = [Double](repeating: 0, count: m)
    var screenable = [Bool](repeating: true, count: m)
    let scratchPerQuery = KBest.scratchCount(k: k)
    var scratch = [KBest.Key](repeating: 0, count: queryBlock * scratchPerQuery)
    seen.withUnsafeMutableBufferPointer { seen in
      let zero = [Double](repeating: 0, count: d)
      (center ?? zero).withUnsafeBufferPointer { center in
        for q in 0..<m {
          let query = queries + q * d
          let out = seen.baseAddress! + q * d
          var norm = 0.0
          for f in 0..<d {
            let v = query[f] - center[f]
            out[f] = Float(v)
            norm += v * v
          }
          screenable[q] = norm <= Self.largestNorm
          loweredQuery[q] = (1 - c) * norm
        }
      }
    }
    points.values.withUnsafeBufferPointer { data in
      loweredNorms.withUnsafeBufferPointer { lowered in
        seen.withUnsafeBufferPointer { seen in
          seenBlock.withUnsafeMutableBufferPointer { seenBlock in
            products.withUnsafeMutableBufferPointer { products in
              scratch.withUnsafeMutableBufferPointer { scratch in
                for first in stride(from: 0, to: m, by: queryBlock) {
                  let count = min(queryBlock, m - first)
                  var best: [KBest] = []
                  best.reserveCapacity(count)
                  for q in 0..<count {
                    best.append(
                      KBest(
                        rows: rows + (first + q) * k, squaredDistances: distances + (first + q) * k, k: k,
                        scratch: scratchPerQuery > 0 ? scratch.baseAddress! + q * scratchPerQuery : nil))
                  }
                  for start in stride(from: 0, to: n, by: pointBlock) {
                    let block = min(pointBlock, n - start)
                    single(data.baseAddress! + start * d, count: block * d, into: seenBlock.baseAddress!)
                    // products[q][i] = −2·q̃·x̃ in single precision (a scaling by −2 is exact).
                    LAPACK.multiplyTransposed(
                      seen.baseAddress! + first * d, rows: count, seenBlock.baseAddress!, columns: block, inner: d,
                      scale: -2, into: products.baseAddress!, stride: pointBlock)
                    for q in 0..<count where screenable[first + q] {
                      let query = queries + (first + q) * d
                      let b = loweredQuery[first + q]
                      // The lower bound (1 − c)(‖q̃‖² + ‖x̃‖²) − 2q̃·x̃ of D is compared as
                      // (1 − c)‖x̃‖² − 2q̃·x̃ ≤ τ − (1 − c)‖q̃‖², the right side rounded up.
                      @inline(__always) func threshold(_ best: KBest) -> Double {
                        guard best.isFull else { return .infinity }
                        let tau = best.worstSquaredDistance
                        return (tau - b) + 4 * u * (abs(tau) + abs(b)) + underflowSlack
                      }
                      var limit = threshold(best[q])
                      let row = products.baseAddress! + q * pointBlock
                      let norms = lowered.baseAddress! + start
                      var i = Self.firstWithin(limit, norms: norms, products: row, from: 0, to: block)
                      while i < block {
                        let point = start + i
                        if admits(point) {
                          let d2 = squaredDistance(query, data.baseAddress! + point * d, d)
                          if best[q].admits(d2, point) {
                            best[q].insert(d2, point)
                            limit = threshold(best[q])
                          }
                        }
                        i = Self.firstWithin(limit, norms: norms, products: row, from: i + 1, to: block)
                      }
                    }
                  }
                  for q in 0..<count {
                    if screenable[first + q] {
                      best[q].finish()
                    } else {
                      exactScan(
                        queries + (first + q) * d, k: k, admits: admits, rows: rows + (first + q) * k,
                        distances: distances + (first + q) * k)
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

  /// The first point of a block from `from` on whose lower bound `norms[i] + products[i]` is within `limit`, or
  /// `end`: the screen's scan, which passes over nearly every point without a distance. A function of its own,
  /// never inlined, so that its loop keeps its few values in registers; inlined into the search around it, the
  /// loop reloaded them from the stack on every point, and its speed shifted with unrelated changes to the
  /// code around it.
  @inline(never)
  private static func firstWithin(
    _ limit: Double, norms: UnsafePointer<Double>, products: UnsafePointer<Float>, from: Int, to end: Int
  ) -> Int {
    var i = from
    while i < end && !(norms[i] + Double(products[i]) <= limit) { i &+= 1 }
    return i
  }

  /// `count` values of consecutive rows, less the column means when centring, in single precision into `out`
  /// (one pass the compiler vectorises).
  @inline(__always)
  private func single(_ values: UnsafePointer<Double>, count: Int, into out: UnsafeMutablePointer<Float>) {
    let d = dimension
    guard let center else {
      for i in 0..<count { out[i] = Float(values[i]) }
      return
    }
    center.withUnsafeBufferPointer { center in
      var offset = 0
      while offset < count {
        let from = values + offset
        let to = out + offset
        for f in 0..<d { to[f] = Float(from[f] - center[f]) }
        offset &+= d
      }
    }
  }
}
