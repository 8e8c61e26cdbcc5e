import BenchbookData
@_spi(Testing) import BenchbookModels
import Testing

/// A tree grown from features sorted once for every row, filtered to a fit's rows, must be the tree the fit
/// grows from its own rows gathered and sorted: node for node, on scikit-learn's seeded goldens, on subsets in
/// any order, and at both entry widths.
@Suite struct FeaturePresortTests {
  typealias Golden = DecisionTreeSeedTests.Golden

  /// Subsets of `count` rows: all of them, every other row, and three fifths of them out of order.
  static func subsets(of count: Int) -> [[Int]] {
    let scrambled = (0..<count).sorted { ($0 * 7919) % 1013 < ($1 * 7919) % 1013 }
    return [Array(0..<count), Array(stride(from: 1, to: count, by: 2)), Array(scrambled.prefix(count * 3 / 5))]
  }

  @Test(arguments: DecisionTreeSeedTests.goldens)
  func presortedFitGrowsTheSameTree(_ golden: Golden) throws {
    let data = try DecisionTreeSeedTests.dataset(golden.dataset)
    let presort = try #require(FeaturePresort(data.x))
    for (s, rows) in Self.subsets(of: data.x.rows).enumerated() {
      let labels = rows.map { data.labels[$0] }
      let own = try golden.model.fit(data.x.selecting(rows: rows), labels: labels, classCount: data.classCount)
      for wide in [false, true] {
        let presorted = try golden.model.fit(
          presorted: presort, rows: { visit in for row in rows { visit(row..<row + 1) } }, labelOfRow: data.labels,
          classCount: data.classCount, wideEntries: wide)
        #expect(presorted.nodes == own.nodes, "\(golden.name), subset \(s), wide \(wide)")
        #expect(presorted.classCounts == own.classCounts, "\(golden.name), subset \(s), wide \(wide)")
        #expect(presorted.depth == own.depth)
      }
      if s == 0 { #expect(DecisionTreeSeedTests.firstDifference(own, golden.nodes) == nil) }
    }
  }

  /// A tuned tree's configurations grown together from the sorted features (the deepest one grown from them, the
  /// others cut from it, their subtrees grown again from the gathered rows where a seeded tie goes another way)
  /// are the trees `sharedFits` grows from the gathered rows, on subsets in any order.
  @Test func presortedSharedFitsEqualSharedFits() throws {
    let data = try DecisionTreeSeedTests.dataset("flights-sample.csv.gz")
    let x = data.x.selecting(rows: Array(0..<5000))
    let allLabels = Array(data.labels[0..<5000])
    let presort = try #require(FeaturePresort(x))
    var regrown = 0
    for rows in Self.subsets(of: 5000).dropFirst() {
      let gathered = x.selecting(rows: rows)
      let labels = rows.map { allLabels[$0] }
      for randomState in [0, 1, 42, nil] as [Int?] {
        let configurations = [3, 6, 9, 12, nil].map { DecisionTree(maxDepth: $0, randomState: randomState) }
        let own = try DecisionTree.sharedFits(configurations, gathered, labels: labels, classCount: 2)
        let presorted = try DecisionTree.sharedFits(
          configurations, presorted: presort, rows: { visit in for row in rows { visit(row..<row + 1) } },
          labelOfRow: allLabels, gathered: gathered, labels: labels, classCount: 2)
        regrown += configurations.count { !own.last!.serves($0) }
        for (c, configuration) in configurations.enumerated() {
          let name =
            "random_state \(String(describing: randomState)), max_depth \(String(describing: configuration.maxDepth))"
          #expect(presorted[c].nodes == own[c].nodes, "\(name)")
          #expect(presorted[c].classCounts == own[c].classCounts, "\(name)")
          #expect(presorted[c].configuration == configuration, "\(name)")
        }
      }
    }
    // Some depths took the path that grows subtrees again from the gathered rows.
    #expect(regrown > 0)
  }

  /// Values equal in float32 but not in double are one value to the tree, whichever row comes first.
  @Test func valuesEqualInFloat32AreTies() throws {
    var rows: [[Double]] = []
    var labels: [Int] = []
    for i in 0..<60 {
      // Pairs 1 + k·2^-30 round to the same float32 as their neighbours.
      rows.append([1 + Double(i % 4) * 0x1p-30 + Double(i / 20), Double((i * 7) % 5)])
      labels.append((i * 5 + i / 3) % 3)
    }
    let x = Matrix(rows)
    let presort = try #require(FeaturePresort(x))
    let subset = Array((0..<60).reversed().filter { $0 % 7 != 0 })
    let sublabels = subset.map { labels[$0] }
    for model in [DecisionTree(), DecisionTree(criterion: .entropy, randomState: nil), DecisionTree(minSamplesLeaf: 3)]
    {
      let own = try model.fit(x.selecting(rows: subset), labels: sublabels, classCount: 3)
      let presorted = try model.fit(
        presorted: presort, rows: { visit in for row in subset { visit(row..<row + 1) } }, labelOfRow: labels,
        classCount: 3)
      #expect(presorted.nodes == own.nodes)
      #expect(own.nodes.count > 3)
    }
  }

  /// A value beyond float32 cannot be sorted as one; the presort declines, and a tree's own fit names its place.
  @Test func declinesValuesBeyondFloat32() throws {
    let x = Matrix([[1, 2], [3, 1e39], [2, 0]])
    #expect(FeaturePresort(x) == nil)
    #expect(FeaturePresort(Matrix([[1, 2], [3, 3e38], [2, 0]])) != nil)
    #expect(throws: ModelError.self) { try DecisionTree().fit(x, labels: [0, 1, 0], classCount: 2) }
  }

  /// Only the fit's own rows' labels are read: a fold lacking a class renumbers the dataset's labels, leaving
  /// the other rows' out of range.
  @Test func readsOnlyTheLabelsOfItsRows() throws {
    let data = try DecisionTreeSeedTests.dataset("iris.csv")
    let presort = try #require(FeaturePresort(data.x))
    let rows = Array(50..<150)  // classes 1 and 2 only
    let renumbered = data.labels.map { $0 == 0 ? -1 : $0 - 1 }
    let shared = try DecisionTree().fit(
      presorted: presort, rows: { visit in visit(50..<150) }, labelOfRow: renumbered, classCount: 2)
    let own = try DecisionTree().fit(
      data.x.selecting(rows: rows), labels: rows.map { renumbered[$0] }, classCount: 2)
    #expect(shared.nodes == own.nodes)
    #expect(shared.classCounts == own.classCounts)
    #expect(shared.nodes.count > 3)
  }

  /// Rows handed over as runs fit as the same rows one by one.
  @Test func runsAndSingleRowsAgree() throws {
    let data = try DecisionTreeSeedTests.dataset("iris.csv")
    let presort = try #require(FeaturePresort(data.x))
    let rows = Array(10..<60) + Array(90..<150)
    let byRuns = try DecisionTree().fit(
      presorted: presort,
      rows: { visit in
        visit(10..<60); visit(90..<150)
      }, labelOfRow: data.labels, classCount: 3)
    let byRow = try DecisionTree().fit(
      presorted: presort, rows: { visit in for row in rows { visit(row..<row + 1) } }, labelOfRow: data.labels,
      classCount: 3)
    #expect(byRuns.nodes == byRow.nodes)
  }
}
