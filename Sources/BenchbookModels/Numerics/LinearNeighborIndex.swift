import BenchbookData

/// The plain scan: every query measures every stored point's exact distance, one at a time.
///
/// The definition every index must agree with, bit for bit (tests hold `KDTree` and
/// `BruteForceNeighborIndex` to it); models search with those two, which are faster, and a kNN fit for an exported
/// file alone (`KNearestNeighbors.exportFits`), which is never searched, stores its rows here without building one.
/// - Complexity: O(queries × points × dimension) per `nearest` call.
public struct LinearNeighborIndex: NeighborIndex {
  /// The stored points, in the order given.
  public let points: Matrix

  /// - Parameter points: consumed; handed the last reference, the index stores them without a copy.
  public init(points: consuming Matrix) {
    self.points = points
  }

  public func storedPoints() -> [Double] { points.values }

  public var pointCount: Int { points.rows }
  public var dimension: Int { points.columns }

  public func nearest(_ queries: Matrix, k: Int) -> NeighborList {
    precondition(k >= 1 && k <= points.rows, "k must be in 1...\(points.rows), not \(k)")
    precondition(queries.columns == points.columns, "queries have \(queries.columns) columns, points \(points.columns)")
    let d = points.columns
    let n = points.rows
    var rows = [Int](repeating: 0, count: queries.rows * k)
    var distances = [Double](repeating: 0, count: queries.rows * k)
    var scratch = [KBest.Key](repeating: 0, count: KBest.scratchCount(k: k))
    points.values.withUnsafeBufferPointer { data in
      queries.values.withUnsafeBufferPointer { qs in
        rows.withUnsafeMutableBufferPointer { outRows in
          distances.withUnsafeMutableBufferPointer { outDistances in
            scratch.withUnsafeMutableBufferPointer { scratch in
              for q in 0..<queries.rows {
                let query = qs.baseAddress! + q * d
                var best = KBest(
                  rows: outRows.baseAddress! + q * k, squaredDistances: outDistances.baseAddress! + q * k, k: k,
                  scratch: scratch.baseAddress)
                for i in 0..<n {
                  let d2 = squaredDistance(query, data.baseAddress! + i * d, d)
                  if best.admits(d2, i) { best.insert(d2, i) }
                }
                best.finish()
              }
            }
          }
        }
      }
    }
    return NeighborList(k: k, rows: rows, squaredDistances: distances)
  }
}
