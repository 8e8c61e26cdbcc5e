import BenchbookData
@_spi(Testing) import BenchbookModels
import Testing

@Suite struct KDTreeTests {
  /// An index keeps the only copy of its points (a kd-tree in its own order); read back, they are the
  /// points as given, row for row, whatever the index.
  @Test(arguments: [1, 4, 30])
  func storedPointsReadBackInTheOrderGiven(leaf: Int) {
    let points = integerPoints(rows: 500, columns: 3, values: 0...9, seed: UInt64(leaf))
    #expect(KDTree(points: points, leafSize: leaf).storedPoints() == points.values)
    #expect(LinearNeighborIndex(points: points).storedPoints() == points.values)
  }

  /// A fitted model's stored rows are its training rows in training order, though only the index holds them.
  @Test(arguments: [KNearestNeighbors.IndexChoice.kdTree, .brute])
  func aFittedModelsSamplesAreItsTrainingRows(index: KNearestNeighbors.IndexChoice) throws {
    let points = integerPoints(rows: 300, columns: 2, values: 0...6, seed: 3)
    let labels = (0..<300).map { $0 % 2 }
    let fitted = try KNearestNeighbors(index: index).fit(points, labels: labels, classCount: 2)
    #expect(fitted.samples == points)
    #expect(fitted.sampleCount == 300 && fitted.featureCount == 2)
  }

  /// The kd-tree must return exactly the linear scan's neighbours and distances,
  /// including which of several equally distant points win.
  @Test(arguments: [(dimension: 1, leaf: 1), (2, 3), (3, 30), (4, 5), (6, 2)])
  func agreesWithLinearScanOnTiedIntegerData(dimension: Int, leaf: Int) {
    let points = integerPoints(rows: 600, columns: dimension, values: 0...4, seed: UInt64(10 * dimension + leaf))
    let queries = integerPoints(rows: 150, columns: dimension, values: -1...5, seed: 99)
    let tree = KDTree(points: points, leafSize: leaf)
    let linear = LinearNeighborIndex(points: points)
    for k in [1, 2, 5, 13, 600] {
      #expect(tree.nearest(queries, k: k) == linear.nearest(queries, k: k), "k = \(k)")
    }
  }

  /// Large k collects candidates in a buffer and selects; it must keep exactly the k nearest, ties included.
  @Test(arguments: [25, 40, 97, 300])
  func largeKAgreesWithLinearScanOnTiedData(k: Int) {
    let points = integerPoints(rows: 900, columns: 3, values: 0...5, seed: 17)
    let queries = integerPoints(rows: 120, columns: 3, values: -1...6, seed: 18)
    let tree = KDTree(points: points, leafSize: 7)
    #expect(tree.nearest(queries, k: k) == LinearNeighborIndex(points: points).nearest(queries, k: k))
  }

  /// Large k's lists are sorted by `KBest`'s own merge sort, which the linear scan shares: checked here against the
  /// standard library's sort of every point's (distance, row), on tied data, for lists of every length modulo 8
  /// (the sort's first runs), and for lists whose last run is placed by binary search (`mergeShortRun`: 136 =
  /// 128 + 8, 258 = 256 + 2 as the tuned kNN's shared list).
  @Test(arguments: [25, 26, 27, 28, 29, 30, 31, 32, 97, 136, 258, 300])
  func largeKListsMatchASortOfEveryPoint(k: Int) {
    let points = integerPoints(rows: 400, columns: 3, values: 0...4, seed: 41)
    let queries = integerPoints(rows: 30, columns: 3, values: -1...5, seed: 42)
    let found = KDTree(points: points, leafSize: 6).nearest(queries, k: k)
    for q in 0..<queries.rows {
      var all: [(d2: Double, row: Int)] = []
      for row in 0..<points.rows {
        var d2 = 0.0
        for f in 0..<3 {
          let difference: Double = queries[q, f] - points[row, f]
          d2 += difference * difference
        }
        all.append((d2, row))
      }
      all.sort { $0.d2 != $1.d2 ? $0.d2 < $1.d2 : $0.row < $1.row }
      let expected = all.prefix(k)
      let rows: [Int] = Array(found.rows[(q * k)..<((q + 1) * k)])
      let distances: [Double] = Array(found.squaredDistances[(q * k)..<((q + 1) * k)])
      #expect(rows == expected.map(\.row), "query \(q)")
      #expect(distances == expected.map(\.d2), "query \(q)")
    }
  }

  /// A query starts from a bound seeded by the query before it (`KBest.seed`). On continuous data the
  /// queries searched together ask about fewer rows than the same queries searched one at a time (each then has
  /// no query before it), with the same answers. Seeds shrunk far below the k-th distance leave fewer than k
  /// held, and those queries are searched again unseeded: more rows asked about, the same answers again.
  @Test(arguments: [5, 25, 60, 200])
  func seedsPruneAndSeedsTooSmallAreSearchedAgain(k: Int) {
    var generator = TestGenerator(seed: UInt64(k))
    let points = Matrix(
      rows: 3000, columns: 3, values: (0..<9000).map { _ in Double.random(in: 0..<1, using: &generator) })
    let queries = Matrix(
      rows: 150, columns: 3, values: (0..<450).map { _ in Double.random(in: 0..<1, using: &generator) })
    let tree = KDTree(points: points, leafSize: 10)
    var asked = (together: 0, alone: 0, shrunk: 0)
    let together = tree.nearest(queries, k: k) { _ in
      asked.together += 1
      return true
    }
    var aloneRows: [Int] = []
    var aloneDistances: [Double] = []
    for q in 0..<queries.rows {
      let alone = tree.nearest(queries.selecting(rows: [q]), k: k) { _ in
        asked.alone += 1
        return true
      }
      aloneRows += alone.rows
      aloneDistances += alone.squaredDistances
    }
    let shrunk = tree.nearest(queries, k: k, seedScale: 1e-6) { _ in
      asked.shrunk += 1
      return true
    }
    #expect(together == LinearNeighborIndex(points: points).nearest(queries, k: k))
    #expect(together.rows == aloneRows)
    #expect(together.squaredDistances == aloneDistances)
    #expect(shrunk == together)
    #expect(asked.together < asked.alone, "the seeds pruned nothing")
    #expect(asked.shrunk > asked.together, "no query was searched again")
  }

  /// A search among admitted rows finds what a tree over those rows alone finds, with rows numbered as here.
  @Test(arguments: [3, 30, 80])
  func admittedRowsSearchEqualsATreeOverThoseRows(k: Int) {
    let points = integerPoints(rows: 700, columns: 2, values: 0...6, seed: 21)
    let queries = integerPoints(rows: 90, columns: 2, values: -1...7, seed: 22)
    let admitted = (0..<700).filter { $0 % 3 != 1 && $0 % 7 != 2 }
    let subset = Matrix(rows: admitted.count, columns: 2, values: admitted.flatMap { [points[$0, 0], points[$0, 1]] })
    let expected = LinearNeighborIndex(points: subset).nearest(queries, k: k)
    let found = KDTree(points: points, leafSize: 5).nearest(queries, k: k) { $0 % 3 != 1 && $0 % 7 != 2 }
    #expect(found.rows.map { admitted.firstIndex(of: $0)! } == expected.rows)
    #expect(found.squaredDistances == expected.squaredDistances)
  }

  /// A run of rows promised excluded is skipped where it fills whole subtrees, and the answers stay the same. The
  /// first coordinate rises with the row, as a date does with rows stored in time order, so the run covers leaves.
  @Test(arguments: [(k: 1, leaf: 2, run: 200..<450), (5, 6, 0..<380), (9, 4, 300..<600), (3, 3, 0..<0)])
  func anExcludedRunIsSkippedWithTheSameAnswers(k: Int, leaf: Int, run: Range<Int>) {
    var generator = TestGenerator(seed: UInt64(leaf))
    let points = Matrix(
      rows: 600, columns: 2,
      values: (0..<600).flatMap { [Double($0 / 40), Double(Int.random(in: 0...6, using: &generator))] })
    let tree = KDTree(points: points, leafSize: leaf)
    let listed = Array(stride(from: 1, to: 600, by: 3))
    var asked = (plain: 0, excluding: 0)
    let plain = tree.nearest(toStored: listed, k: k) { row in
      asked.plain += 1
      return !run.contains(row) && row % 7 != 0
    }
    let excluding = tree.nearest(toStored: listed, k: k, excluding: run) { row in
      asked.excluding += 1
      return !run.contains(row) && row % 7 != 0
    }
    #expect(excluding == plain)
    if run.isEmpty {
      #expect(asked.excluding == asked.plain)
    } else {
      #expect(asked.excluding < asked.plain, "the excluded rows' leaves were visited")
    }
  }

  /// Stored points as queries, listed in any order, get exactly what the same points given as a query matrix
  /// get, each in its own slot, though they are searched in the tree's order.
  @Test(arguments: [(k: 1, leaf: 1), (5, 4), (12, 30)])
  func storedPointQueriesEqualTheSamePointsGivenAsQueries(k: Int, leaf: Int) {
    let points = integerPoints(rows: 800, columns: 3, values: 0...5, seed: UInt64(31 + leaf))
    var generator = TestGenerator(seed: UInt64(k))
    let listed = Array((0..<800).filter { $0 % 4 != 3 }.shuffled(using: &generator).prefix(250))
    let admits: (Int) -> Bool = { $0 % 5 != 0 }
    let tree = KDTree(points: points, leafSize: leaf)
    let expected = tree.nearest(points.selecting(rows: listed), k: k, admitting: admits)
    #expect(tree.nearest(toStored: listed, k: k, admitting: admits) == expected)
    #expect(tree.nearest(toStored: [], k: k, admitting: admits).rows.isEmpty)
  }

  @Test func agreesWithLinearScanOnContinuousData() {
    var generator = TestGenerator(seed: 5)
    let points = Matrix(
      rows: 2000, columns: 3, values: (0..<6000).map { _ in Double.random(in: -10...10, using: &generator) })
    let queries = Matrix(
      rows: 200, columns: 3, values: (0..<600).map { _ in Double.random(in: -12...12, using: &generator) })
    let tree = KDTree(points: points, leafSize: 8)
    #expect(tree.nearest(queries, k: 7) == LinearNeighborIndex(points: points).nearest(queries, k: 7))
  }

  @Test func breaksDistanceTiesByLowerRow() {
    // Rows 1, 2 and 4 are all at squared distance 1 from the origin; row 3 is at the origin.
    let points = Matrix([[5, 5], [0, 1], [1, 0], [0, 0], [-1, 0]])
    let query = Matrix([[0, 0]])
    for index in [KDTree(points: points, leafSize: 1) as any NeighborIndex, LinearNeighborIndex(points: points)] {
      let found = index.nearest(query, k: 3)
      #expect(Array(found.rows(ofQuery: 0)) == [3, 1, 2])
      #expect(Array(found.squaredDistances(ofQuery: 0)) == [0, 1, 1])
    }
  }

  @Test func listsNeighboursNearestFirstThenByRow() {
    let points = integerPoints(rows: 300, columns: 2, values: 0...3, seed: 1)
    let queries = integerPoints(rows: 40, columns: 2, values: 0...3, seed: 2)
    let found = KDTree(points: points, leafSize: 4).nearest(queries, k: 20)
    #expect(found.queryCount == 40)
    for q in 0..<found.queryCount {
      let distances = Array(found.squaredDistances(ofQuery: q))
      let rows = Array(found.rows(ofQuery: q))
      let ordered = (1..<20).allSatisfy { i in
        distances[i - 1] < distances[i] || (distances[i - 1] == distances[i] && rows[i - 1] < rows[i])
      }
      #expect(ordered)
      #expect(Set(found.rows(ofQuery: q)).count == 20)
    }
  }

  @Test func handlesPointsThatAllCoincide() {
    let points = Matrix(rows: 100, columns: 2, repeating: 7)
    let tree = KDTree(points: points, leafSize: 3)
    #expect(tree.nodeCount == 1)
    let found = tree.nearest(Matrix([[7, 7], [0, 0]]), k: 4)
    #expect(Array(found.rows(ofQuery: 0)) == [0, 1, 2, 3])
    #expect(Array(found.squaredDistances(ofQuery: 1)) == [98, 98, 98, 98])
  }

  @Test func splitsOnlyNodesOfAtLeastTwiceTheLeafSize() {
    let points = integerPoints(rows: 59, columns: 2, values: 0...1000, seed: 3)
    #expect(KDTree(points: points, leafSize: 30).nodeCount == 1)
    #expect(KDTree(points: points, leafSize: 29).nodeCount == 3)
  }
}
