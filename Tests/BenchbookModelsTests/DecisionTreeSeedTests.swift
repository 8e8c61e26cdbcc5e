import BenchbookData
import Foundation
import Testing

@_spi(Testing) @testable import BenchbookModels

/// Seeded trees node for node against scikit-learn's `DecisionTreeClassifier(random_state:)`.
///
/// Goldens: `cd Tests/BenchbookModelsTests/Fixtures && python3 tree-seed-goldens.py` (scikit-learn
/// 1.9.1). Every case is decided by equal-gain ties on some nodes (the script prints how many
/// distinct trees the seeds grow), so only the same seeded feature order grows the same tree.
@Suite struct DecisionTreeSeedTests {
  struct Golden: Decodable, CustomTestStringConvertible, Sendable {
    struct Nodes: Decodable, Sendable {
      var feature: [Int]
      var threshold: [Double]
      var left: [Int]
      var right: [Int]
      var samples: [Int]
      /// Class counts, node-major.
      var counts: [Int]
    }

    /// scikit-learn's settings: numbers, or a criterion word.
    enum Setting: Decodable, Sendable {
      case number(Double)
      case word(String)

      init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
          self = .number(number)
        } else {
          self = .word(try container.decode(String.self))
        }
      }
    }

    var name: String
    var dataset: String
    var params: [String: Setting]
    var seed: Int
    var nodes: Nodes

    var testDescription: String { name }

    var model: DecisionTree {
      var model = DecisionTree(randomState: seed)
      for (key, value) in params {
        switch (key, value) {
        case ("criterion", .word(let word)): model.criterion = DecisionTree.Criterion(rawValue: word)!
        case ("max_depth", .number(let n)): model.maxDepth = Int(n)
        case ("min_samples_split", .number(let n)): model.minSamplesSplit = Int(n)
        case ("min_samples_leaf", .number(let n)): model.minSamplesLeaf = Int(n)
        case ("min_impurity_decrease", .number(let n)): model.minImpurityDecrease = n
        default: fatalError("unknown setting \(key)")
        }
      }
      return model
    }
  }

  struct Goldens: Decodable {
    var sklearn: String
    var cases: [Golden]
  }

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static let goldens: [Golden] = {
    let path = fixtures.appendingPathComponent("tree-seed-goldens.json.gz").path
    let bytes = try! DataFile.contents(atPath: path)
    return try! JSONDecoder().decode(Goldens.self, from: Data(bytes)).cases
  }()

  /// A fixture whose last column is the class, classes numbered in sorted order (gzipped or not).
  static func dataset(_ name: String) throws -> (x: Matrix, labels: [Int], classCount: Int) {
    let bytes = try DataFile.contents(atPath: fixtures.appendingPathComponent(name).path)
    var rows: [[Double]] = []
    var names: [String] = []
    for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst() {
      let fields = line.split(separator: ",").map(String.init)
      rows.append(fields.dropLast().map { Double($0)! })
      names.append(fields.last!)
    }
    let classes = Array(Set(names)).sorted()
    return (Matrix(rows), names.map { classes.firstIndex(of: $0)! }, classes.count)
  }

  /// The first node where Benchbook's tree and scikit-learn's disagree, described; `nil` when identical.
  static func firstDifference(_ fitted: FittedDecisionTree, _ golden: Golden.Nodes) -> String? {
    let k = fitted.classCount
    for i in 0..<min(fitted.nodes.count, golden.feature.count) {
      let node = fitted.nodes[i]
      let leaf = golden.left[i] == -1
      let counts = Array(golden.counts[(i * k)..<((i + 1) * k)])
      // A forest's trees weigh rows by their bootstrap counts: shares are of the counts' sum (the rows, unweighted).
      let shares = counts.map { Double($0) / Double(counts.reduce(0, +)) }
      let same =
        (leaf
          ? node.isLeaf
          : node.feature == golden.feature[i] && node.threshold == golden.threshold[i]
            && node.left == golden.left[i] && node.right == golden.right[i])
        && node.sampleCount == golden.samples[i] && Array(fitted.classCounts(ofNode: i)) == counts
        && Array(fitted.probabilities(ofNode: i)) == shares
      if !same {
        return "node \(i): Benchbook feature \(node.feature) threshold \(node.threshold) children \(node.left), "
          + "\(node.right) rows \(node.sampleCount); scikit-learn feature \(golden.feature[i]) threshold "
          + "\(golden.threshold[i]) children \(golden.left[i]), \(golden.right[i]) rows \(golden.samples[i])"
      }
    }
    if fitted.nodes.count != golden.feature.count {
      return "\(fitted.nodes.count) nodes, scikit-learn \(golden.feature.count)"
    }
    return nil
  }

  @Test(arguments: goldens)
  func growsScikitLearnsSeededTree(_ golden: Golden) throws {
    let data = try Self.dataset(golden.dataset)
    let fitted = try golden.model.fit(data.x, labels: data.labels, classCount: data.classCount)
    let difference = Self.firstDifference(fitted, golden.nodes)
    #expect(difference == nil, "\(golden.name): \(difference ?? "")")
  }

  /// The sorted lists pack a row with its label in 4 bytes where both fit, else in 8 (over 2^31 rows, or
  /// fewer with many classes); both widths must grow the same tree, node for node.
  @Test(arguments: goldens)
  func wideEntriesGrowTheSameTree(_ golden: Golden) throws {
    let data = try Self.dataset(golden.dataset)
    let wide = try golden.model.fitWithWideEntries(data.x, labels: data.labels, classCount: data.classCount)
    let narrow = try golden.model.fit(data.x, labels: data.labels, classCount: data.classCount)
    #expect(wide.nodes == narrow.nodes)
    #expect(Self.firstDifference(wide, golden.nodes) == nil, "\(golden.name)")
  }

  /// The goldens would prove little if the seed did not matter: without one, ties go to the
  /// first column and the trees differ from every seeded one.
  @Test func goldensDependOnTheSeed() throws {
    let fullIris = Self.goldens.filter { $0.dataset == "iris.csv" && $0.params.isEmpty }
    try #require(fullIris.count == 3)
    let data = try Self.dataset("iris.csv")
    let columnOrder = try DecisionTree(randomState: nil).fit(data.x, labels: data.labels, classCount: 3)
    for golden in fullIris {
      #expect(Self.firstDifference(columnOrder, golden.nodes) != nil, "\(golden.name)")
    }
    #expect(Set(fullIris.map(\.nodes.feature)).count == 3)
  }

  /// NumPy: `RandomState(s).randint(0, 2**31 - 1)` for the seeds the goldens use, and the reference
  /// MT19937 outputs for seed 5489 (`RandomState(5489).randint(0, 2**32, 4, dtype=np.uint32)`).
  @Test func mersenneTwisterMatchesNumPy() {
    var reference = MersenneTwister(seed: 5489)
    #expect((0..<4).map { _ in reference.next() } == [3_499_211_612, 581_869_302, 3_890_346_734, 3_586_334_585])
    let seeds: [UInt32: UInt64] = [0: 209_652_396, 1: 1_791_095_845, 42: 1_608_637_542, .max: 419_326_371]
    for (seed, expected) in seeds {
      var twister = MersenneTwister(seed: seed)
      #expect(twister.integer(below: UInt64(Int32.max)) == expected, "seed \(seed)")
    }
    // RandomState(7): randint(0, 10) eight times, then randint(0, 1000003) four times from a fresh one.
    var small = MersenneTwister(seed: 7)
    #expect((0..<8).map { _ in small.integer(below: 10) } == [4, 9, 6, 3, 3, 7, 7, 9])
    var large = MersenneTwister(seed: 7)
    #expect((0..<4).map { _ in large.integer(below: 1_000_003) } == [585_903, 189_636, 573_977, 535_030])
  }

  /// Tuning grows the deepest tree and cuts it back; with a seed that is exact only where the replayed
  /// feature order breaks every tie as the shallower growth does (`serves`); elsewhere the subtrees whose
  /// ties go another way are grown again.
  @Test func sharedFitsEqualSeparateFits() throws {
    let data = try Self.dataset("flights-sample.csv.gz")
    let x = data.x.selecting(rows: Array(0..<4000))
    let labels = Array(data.labels[0..<4000])
    let test = data.x.selecting(rows: Array(4000..<6000))
    var regrown = 0
    for randomState in [0, 1, 42, nil] as [Int?] {
      let configurations = [3, 6, 9, 12, nil].map { DecisionTree(maxDepth: $0, randomState: randomState) }
      let shared = try DecisionTree.sharedFits(configurations, x, labels: labels, classCount: 2)
      // Depths the deep tree's cut does not serve take the path that grows subtrees again.
      regrown += configurations.count { !shared.last!.serves($0) }
      let predicted = try DecisionTree.sharedPredictions(configurations, x, labels: labels, classCount: 2, test: test)
      for (c, configuration) in configurations.enumerated() {
        let separate = try configuration.fit(x, labels: labels, classCount: 2)
        let name =
          "random_state \(String(describing: randomState)), max_depth \(String(describing: configuration.maxDepth))"
        #expect(shared[c].nodes == separate.nodes, "\(name)")
        #expect(shared[c].configuration == configuration, "\(name)")
        #expect(predicted[c] == separate.predictProbabilities(test), "\(name)")
      }
    }
    #expect(regrown > 0)
  }

  /// A recorded growth keeps each leaf's rows as the leaf is made, so regrowing a subtree starts from its rows
  /// without walking every training row down the tree (`TreeNodeRows`): grown from the rows themselves or from
  /// shared sorted lists (positions among the fit's rows, which visit a scattered subset), every node's recorded
  /// rows are the rows whose walk passes through it.
  @Test func recordedRowsAreTheRowsThatReachEachNode() throws {
    let data = try Self.dataset("flights-sample.csv.gz")
    let subset = Array(stride(from: 0, to: 6000, by: 2))
    let x = data.x.selecting(rows: subset)
    let labels = subset.map { data.labels[$0] }
    let presort = try #require(FeaturePresort(data.x))
    for randomState in [0, 42] {
      let configuration = DecisionTree(randomState: randomState)
      let grown = try configuration.fit(x, labels: labels, classCount: 2, recordingGrowth: true)
      let presorted = try configuration.fit(
        presorted: presort, rows: { visit in for row in subset { visit(row..<row + 1) } },
        labelOfRow: data.labels, classCount: 2, wideEntries: false, recordingGrowth: true)
      #expect(presorted.nodes == grown.nodes)
      for tree in [grown, presorted] {
        let recorded = TreeNodeRows(tree, growth: try #require(tree.growth))
        var reaching = [[Int]](repeating: [], count: tree.nodes.count)
        let leaves = tree.leaves(x)
        for row in 0..<x.rows {
          var node = 0
          reaching[node].append(row)
          while !tree.nodes[node].isLeaf {
            let split = tree.nodes[node]
            node = Double(Float(x[row, split.feature])) <= split.threshold ? split.left : split.right
            reaching[node].append(row)
          }
          #expect(node == leaves[row], "row \(row) walks to the leaf `leaves` finds")
        }
        for node in tree.nodes.indices {
          #expect(recorded.rows(of: node) == reaching[node], "random_state \(randomState), node \(node)")
        }
      }
    }
  }

  /// The replay decides exactly: the deep seeded tree serves a depth if and only if its cut is that depth's own
  /// tree, and on this sample both happen (a node cut to a leaf draws nothing, so later ties may go another way).
  @Test func servesExactlyWhenTheCutIsTheShallowerTree() throws {
    let data = try Self.dataset("flights-sample.csv.gz")
    let x = data.x.selecting(rows: Array(0..<4000))
    let labels = Array(data.labels[0..<4000])
    var served = 0
    var refused = 0
    for randomState in [0, 1, 42] {
      let deep = try DecisionTree(randomState: randomState).fit(
        x, labels: labels, classCount: 2, recordingGrowth: true)
      // Without the record, a seeded tree cannot tell, and serves no shallower limit.
      let unrecorded = try DecisionTree(randomState: randomState).fit(x, labels: labels, classCount: 2)
      #expect(unrecorded.nodes == deep.nodes)
      #expect(!unrecorded.serves(DecisionTree(maxDepth: 2, randomState: randomState)))
      for depth in [2, 3, 4, 6, 9, 12] {
        let configuration = DecisionTree(maxDepth: depth, randomState: randomState)
        let same =
          try deep.truncated(to: configuration).nodes
          == configuration.fit(x, labels: labels, classCount: 2).nodes
        #expect(deep.serves(configuration) == same, "random_state \(randomState), max_depth \(depth)")
        if same { served += 1 } else { refused += 1 }
      }
      // Another shape (a leaf minimum) is never served; the tree's own settings always are.
      #expect(!deep.serves(DecisionTree(maxDepth: 3, minSamplesLeaf: 5, randomState: randomState)))
      #expect(deep.serves(DecisionTree(randomState: randomState)))
    }
    #expect(served > 0)
    #expect(refused > 0)
  }
}
