import BenchbookData
import BenchbookModels
import Testing

/// Brute force screens with BLAS distances and re-checks exactly near the k-th neighbour; it must return
/// exactly what the kd-tree and the plain linear scan return, bit for bit, ties included. The data are chosen
/// where the screen is weakest: many exact ties (integer features, duplicated rows), one-hot columns in many
/// dimensions, and points far from the origin where ‖q‖² − 2q·x + ‖x‖² cancels.
@Suite struct BruteForceNeighborIndexTests {
  /// All three indexes, and brute force's subset search, on `points` and `queries` for each k.
  func expectAllAgree(
    _ points: Matrix, _ queries: Matrix, ks: [Int], leaf: Int = 5,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let brute = BruteForceNeighborIndex(points: points)
    let tree = KDTree(points: points, leafSize: leaf)
    let linear = LinearNeighborIndex(points: points)
    for k in ks {
      let expected = linear.nearest(queries, k: k)
      for (name, found) in [("brute force", brute.nearest(queries, k: k)), ("kd-tree", tree.nearest(queries, k: k))] {
        let first = (0..<queries.rows).first { q in
          found.rows(ofQuery: q) != expected.rows(ofQuery: q)
            || found.squaredDistances(ofQuery: q).map(\.bitPattern)
              != expected.squaredDistances(ofQuery: q).map(\.bitPattern)
        }
        #expect(first == nil, "\(name), k = \(k): query \(first ?? -1) differs", sourceLocation: sourceLocation)
      }
    }
  }

  /// Small integers in 3 to 40 dimensions: duplicated rows, zero distances and many points at the k-th
  /// distance. Query and point counts are not multiples of the blocks (two blocks of queries, six of points), and
  /// k crosses the large-k buffer.
  @Test(arguments: [(dimension: 3, values: 0...3), (8, 0...2), (17, 0...1), (40, 0...2)])
  func agreesOnTiedIntegerData(dimension: Int, values: ClosedRange<Int>) {
    let points = integerPoints(rows: 1300, columns: dimension, values: values, seed: UInt64(dimension))
    var queries = integerPoints(rows: 600, columns: dimension, values: values, seed: UInt64(dimension + 100))
    // A few queries that are stored points exactly.
    for q in 0..<20 {
      for f in 0..<dimension { queries[q, f] = points[q * 37, f] }
    }
    expectAllAgree(points, queries, ks: [1, 5, 24, 25, 130, 1300])
  }

  /// One-hot columns of three categorical features (96 columns, 3 non-zero per row) beside two small integers:
  /// high-dimensional, sparse, and full of exact ties.
  @Test func agreesOnHighDimensionalOneHotData() {
    var generator = TestGenerator(seed: 41)
    func oneHotRows(_ count: Int) -> Matrix {
      Matrix(
        (0..<count).map { _ in
          var row = [Double](repeating: 0, count: 98)
          row[Int.random(in: 0..<40, using: &generator)] = 1
          row[40 + Int.random(in: 0..<50, using: &generator)] = 1
          row[90 + Int.random(in: 0..<6, using: &generator)] = 1
          row[96] = Double(Int.random(in: 0...3, using: &generator))
          row[97] = Double(Int.random(in: 1...2, using: &generator))
          return row
        })
    }
    let points = oneHotRows(1100)
    #expect(NeighborIndexKind.isSparse(points))
    expectAllAgree(points, oneHotRows(260), ks: [1, 5, 31])
  }

  /// Coordinates near 10⁹ that differ by units: without centring ‖q‖² − 2q·x + ‖x‖² would lose every digit
  /// of the distances; the re-check must still return the exact neighbours.
  @Test func agreesFarFromTheOrigin() {
    let offset = Matrix(
      rows: 900, columns: 20,
      values: integerPoints(rows: 900, columns: 20, values: 0...4, seed: 8).values.map {
        1e9 + $0
      })
    let queries = Matrix(
      rows: 150, columns: 20,
      values: integerPoints(rows: 150, columns: 20, values: 0...4, seed: 9).values.map {
        1e9 + $0 + 0.5
      })
    expectAllAgree(offset, queries, ks: [1, 7])
  }

  /// Coordinates drawn from a few decimals that binary cannot hold (0.1, 0.3, 0.7): in exact arithmetic many
  /// points tie at each distance (the same squared differences in other columns), and only the last bits of
  /// each exact sum, added in column order, tell them apart: bits a BLAS product rounds away or the other way.
  /// A screen that trusted those products instead of re-checking would order such points wrongly. Away from
  /// the origin the index centres the rows before the products; around it (−0.9 to 0.7) it takes them as given.
  @Test(arguments: [
    (16, [0.1, 0.3, 0.7]), (33, [0.1, 0.3, 0.7]), (16, [-0.1, 0.3, 0.7, -0.9]), (24, [-0.1, 0.3, 0.7, -0.9]),
  ])
  func agreesWhereOnlyTheLastBitsDiffer(dimension: Int, decimals: [Double]) {
    var generator = TestGenerator(seed: UInt64(dimension))
    func rows(_ count: Int) -> Matrix {
      Matrix(
        rows: count, columns: dimension,
        values: (0..<(count * dimension)).map { _ in decimals[Int.random(in: 0..<decimals.count, using: &generator)] })
    }
    expectAllAgree(rows(1200), rows(150), ks: [1, 5, 40])
  }

  /// Continuous values over many scales: no ties, but distances within rounding of each other.
  @Test func agreesOnContinuousData() {
    var generator = TestGenerator(seed: 77)
    func rows(_ count: Int) -> Matrix {
      Matrix(
        rows: count, columns: 30,
        values: (0..<(count * 30)).map { i in
          Double.random(in: -1...1, using: &generator) * [1e-3, 1, 1e4][i % 3]
        })
    }
    expectAllAgree(rows(1500), rows(200), ks: [1, 5, 60])
  }

  /// A search among admitted rows, and stored points as queries, find what the kd-tree finds.
  @Test(arguments: [3, 40])
  func subsetSearchAgreesWithTheKDTree(k: Int) {
    let points = integerPoints(rows: 1000, columns: 18, values: 0...2, seed: 5)
    let queries = integerPoints(rows: 140, columns: 18, values: 0...2, seed: 6)
    let admits: (Int) -> Bool = { $0 % 3 != 1 && $0 % 7 != 2 }
    let brute = BruteForceNeighborIndex(points: points)
    let tree = KDTree(points: points, leafSize: 4)
    #expect(brute.nearest(queries, k: k, admitting: admits) == tree.nearest(queries, k: k, admitting: admits))
    let listed = Array(stride(from: 3, to: 1000, by: 7))
    #expect(
      brute.nearest(toStored: listed, k: k, admitting: admits)
        == tree.nearest(toStored: listed, k: k, admitting: admits))
  }

  /// Queries the screen cannot bound (not finite, or too large to square) take the exact scan, as do points
  /// too large to square: the answers are still the linear scan's.
  @Test func queriesAndPointsBeyondTheScreenTakeTheExactScan() {
    let points = integerPoints(rows: 600, columns: 16, values: 0...3, seed: 12)
    var queries = integerPoints(rows: 10, columns: 16, values: 0...3, seed: 13)
    queries[2, 3] = .nan
    queries[5, 0] = 1e200
    let linear = LinearNeighborIndex(points: points)
    #expect(BruteForceNeighborIndex(points: points).nearest(queries, k: 4) == linear.nearest(queries, k: 4))
    var huge = points
    huge[7, 2] = 3e150
    #expect(
      BruteForceNeighborIndex(points: huge).nearest(queries, k: 4)
        == LinearNeighborIndex(points: huge).nearest(queries, k: 4))
  }

  @Test func storesThePointsAsGiven() {
    let points = integerPoints(rows: 50, columns: 3, values: 0...9, seed: 2)
    #expect(BruteForceNeighborIndex(points: points).storedPoints() == points.values)
  }

  /// Fitted models, brute force against kd-tree, predict bit-identical probabilities on one-hot data with ties.
  @Test(arguments: [KNearestNeighbors.Weighting.uniform, .distance])
  func fittedModelsAgreeBitForBitOnOneHotData(weights: KNearestNeighbors.Weighting) throws {
    var generator = TestGenerator(seed: 3)
    func rows(_ count: Int) -> Matrix {
      Matrix(
        (0..<count).map { _ in
          var row = [Double](repeating: 0, count: 24)
          row[Int.random(in: 0..<20, using: &generator)] = 1
          row[20 + Int.random(in: 0..<3, using: &generator)] = 1
          row[23] = Double(Int.random(in: 0...2, using: &generator))
          return row
        })
    }
    let x = rows(700)
    let labels = (0..<700).map { _ in Int.random(in: 0..<4, using: &generator) }
    let queries = rows(250)
    for k in [1, 5, 50] {
      let brute = try KNearestNeighbors(k: k, weights: weights).fit(x, labels: labels, classCount: 4)
      let kd = try KNearestNeighbors(k: k, weights: weights, index: .kdTree).fit(x, labels: labels, classCount: 4)
      #expect(brute.indexKind == .linear && kd.indexKind == .kdTree)
      let a = brute.predictProbabilities(queries)
      let b = kd.predictProbabilities(queries)
      #expect(a.values.map(\.bitPattern) == b.values.map(\.bitPattern), "k = \(k)")
    }
  }
}
