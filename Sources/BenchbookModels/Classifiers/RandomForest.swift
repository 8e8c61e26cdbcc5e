import BenchbookData
import Dispatch
import Foundation
import Synchronization

/// scikit-learn's `RandomForestClassifier()`: `n_estimators` CART trees, each grown on a bootstrap sample of the
/// rows and looking at `max_features` features per node, their class shares averaged.
///
/// The same `random_state` (default 0, as the decision tree's) grows the very forest scikit-learn grows: the
/// forest's `RandomState` draws each tree's seed (`randint(2³¹ − 1)`), and each tree's seed starts both its
/// bootstrap draw (`randint(0, n, n_samples)`) and its splitter's feature order (`FeatureVisitOrder`). A tree sees
/// each drawn row once, weighted by how often it was drawn (`TreeBuilder.build(_:labels:weights:classCount:)`),
/// as scikit-learn passes the counts as sample weights. Trees grow in parallel; each depends on its seed alone, so
/// the forest is the same at any thread count.
public struct RandomForest: Classifier, Hashable, Codable {
  /// scikit-learn's `max_features`: how many features a node draws before it stops looking.
  public enum MaxFeatures: Sendable, Hashable, Codable {
    case sqrt
    case log2
    /// Every feature (`None`).
    case all
    case count(Int)
    /// A share of the features, `max(1, int(share · features))`.
    case share(Double)

    /// The count for `features` columns, as scikit-learn resolves it.
    public func count(features: Int) -> Int {
      switch self {
      case .sqrt: max(1, Int(Double(features).squareRoot()))
      case .log2: max(1, Int(Foundation.log2(Double(features))))
      case .all: features
      case .count(let count): count
      case .share(let share): max(1, Int(share * Double(features)))
      }
    }

    var parameter: ParameterValue {
      switch self {
      case .sqrt: .string("sqrt")
      case .log2: .string("log2")
      case .all: .none
      case .count(let count): .int(count)
      case .share(let share): .double(share)
      }
    }
  }

  /// scikit-learn's `max_samples`: the bootstrap sample's size.
  public enum MaxSamples: Sendable, Hashable, Codable {
    /// As many as the rows (`None`).
    case all
    case count(Int)
    /// `max(round(share · rows), 1)`.
    case share(Double)

    func count(rows: Int) -> Int {
      switch self {
      case .all: rows
      case .count(let count): count
      case .share(let share): max(Int((share * Double(rows)).rounded(.toNearestOrEven)), 1)
      }
    }

    var parameter: ParameterValue {
      switch self {
      case .all: .none
      case .count(let count): .int(count)
      case .share(let share): .double(share)
      }
    }
  }

  public var nEstimators: Int
  public var criterion: DecisionTree.Criterion
  public var maxDepth: Int?
  public var minSamplesSplit: Int
  public var minSamplesLeaf: Int
  public var minImpurityDecrease: Double
  public var maxFeatures: MaxFeatures
  public var bootstrap: Bool
  public var maxSamples: MaxSamples
  /// Seeds the forest's draws; scikit-learn's `None` (unseeded) has no counterpart, as a run must repeat.
  public var randomState: Int

  public init(
    nEstimators: Int = 100, criterion: DecisionTree.Criterion = .gini, maxDepth: Int? = nil, minSamplesSplit: Int = 2,
    minSamplesLeaf: Int = 1, minImpurityDecrease: Double = 0, maxFeatures: MaxFeatures = .sqrt, bootstrap: Bool = true,
    maxSamples: MaxSamples = .all, randomState: Int = 0
  ) {
    precondition(nEstimators >= 1, "a forest has a tree")
    self.nEstimators = nEstimators
    self.criterion = criterion
    self.maxDepth = maxDepth
    self.minSamplesSplit = minSamplesSplit
    self.minSamplesLeaf = minSamplesLeaf
    self.minImpurityDecrease = minImpurityDecrease
    self.maxFeatures = maxFeatures
    self.bootstrap = bootstrap
    self.maxSamples = maxSamples
    self.randomState = randomState
  }

  /// The most trees a spec may ask for: a bound on the work and the file, far above what forests use.
  public static let maximumTrees = 10_000

  public init(settings: inout SettingsReader) throws(SettingError) {
    nEstimators = try settings.int(
      "n_estimators", default: 100, requirement: "1 to \(Self.maximumTrees)",
      isValid: { (1...Self.maximumTrees).contains($0) })
    let word = try settings.choice(
      "criterion", options: DecisionTree.Criterion.allCases.map(\.rawValue), default: "gini")
    criterion = DecisionTree.Criterion(rawValue: word)!
    maxDepth = try settings.optionalInt("max_depth", requirement: "none or at least 1") { $0 >= 1 }
    minSamplesSplit = try settings.int("min_samples_split", default: 2, requirement: "at least 2") { $0 >= 2 }
    minSamplesLeaf = try settings.int("min_samples_leaf", default: 1, requirement: "at least 1") { $0 >= 1 }
    minImpurityDecrease = try settings.double(
      "min_impurity_decrease", default: 0, requirement: "at least 0", isValid: { $0 >= 0 })
    switch try settings.wordOrNumber("max_features", words: ["sqrt", "log2", "none"], default: .word("sqrt")) {
    case .word("sqrt"): maxFeatures = .sqrt
    case .word("log2"): maxFeatures = .log2
    case .word: maxFeatures = .all
    case .whole(let count) where count >= 1: maxFeatures = .count(count)
    case .fraction(let share) where share > 0 && share <= 1: maxFeatures = .share(share)
    default:
      throw SettingError(
        key: "max_features",
        message: "max_features must be sqrt, log2, none, a count of at least 1 or a share in (0, 1]")
    }
    bootstrap = try settings.bool("bootstrap", default: true)
    switch try settings.wordOrNumber("max_samples", words: ["none"], default: .word("none")) {
    case .word: maxSamples = .all
    case .whole(let count) where count >= 1: maxSamples = .count(count)
    case .fraction(let share) where share > 0 && share <= 1: maxSamples = .share(share)
    default:
      throw SettingError(
        key: "max_samples", message: "max_samples must be none, a count of at least 1 or a share in (0, 1]")
    }
    randomState = try settings.int(
      "random_state", default: 0, requirement: "0 to \(UInt32.max)", isValid: DecisionTree.randomStates.contains)
    try settings.finish(known: Self.settingsSchema.flatMap(\.spellings))
  }

  public static let settingsSchema: [SettingDescriptor] = [
    SettingDescriptor("n_estimators", type: .wholeNumber, default: .int(100), searchable: true),
    SettingDescriptor(
      "criterion", type: .word(DecisionTree.Criterion.allCases.map(\.rawValue)), default: .string("gini"),
      searchable: true),
    SettingDescriptor("max_depth", type: .optionalWholeNumber, default: .none, searchable: true),
    SettingDescriptor("min_samples_split", type: .wholeNumber, default: .int(2), searchable: true),
    SettingDescriptor("min_samples_leaf", type: .wholeNumber, default: .int(1), searchable: true),
    SettingDescriptor("min_impurity_decrease", type: .number, default: .double(0), searchable: true),
    SettingDescriptor(
      "max_features", type: .wordOrNumber(["sqrt", "log2", "none"]), default: .string("sqrt"), searchable: true),
    SettingDescriptor("bootstrap", type: .flag, default: .bool(true), searchable: true),
    SettingDescriptor("max_samples", type: .wordOrNumber(["none"]), default: .none, searchable: true),
    // A seed picks among equally good forests; searching over seeds would tune noise.
    SettingDescriptor("random_state", type: .wholeNumber, default: .int(0), searchable: false),
  ]

  public var parameters: [String: ParameterValue] {
    [
      "n_estimators": .int(nEstimators), "criterion": .string(criterion.rawValue),
      "max_depth": maxDepth.map { .int($0) } ?? .none, "min_samples_split": .int(minSamplesSplit),
      "min_samples_leaf": .int(minSamplesLeaf), "min_impurity_decrease": .double(minImpurityDecrease),
      "max_features": maxFeatures.parameter, "bootstrap": .bool(bootstrap), "max_samples": maxSamples.parameter,
      "random_state": .int(randomState),
    ]
  }

  /// Each tree's seed, as the forest's `RandomState(random_state)` draws them (`randint(np.iinfo(np.int32).max)`
  /// per tree, in order).
  public func treeSeeds() -> [Int] {
    var forest = MersenneTwister(seed: UInt32(randomState))
    return (0..<nEstimators).map { _ in Int(forest.integer(below: UInt64(Int32.max))) }
  }

  /// How often each row is drawn into the bootstrap sample of the tree seeded `seed`: `RandomState(seed)
  /// .randint(0, rows, samples)`, counted.
  public static func bootstrapCounts(seed: Int, rows: Int, samples: Int) -> [Int] {
    var draw = MersenneTwister(seed: UInt32(seed))
    var counts = [Int](repeating: 0, count: rows)
    for _ in 0..<samples { counts[Int(draw.integer(below: UInt64(rows)))] += 1 }
    return counts
  }

  /// Grows the trees, in parallel. Throws when a feature value is not finite in float32, or when `max_features`
  /// or `max_samples` asks for more than the data has.
  public func fit(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError) -> FittedRandomForest {
    precondition(labels.count == x.rows, "one label per row")
    let x = consume x
    let rows = x.rows
    guard rows > 0 else { throw ModelError("a random forest needs at least one training row") }
    let features = maxFeatures.count(features: x.columns)
    if case .count(let count) = maxFeatures, count > x.columns {
      throw ModelError("max_features is \(count) but the data has \(x.columns) columns")
    }
    let samples = maxSamples.count(rows: rows)
    if bootstrap, case .count(let count) = maxSamples, count > rows {
      throw ModelError("max_samples is \(count) but the training rows are \(rows)")
    }
    let seeds = treeSeeds()
    let tree = DecisionTree(
      criterion: criterion, maxDepth: maxDepth, minSamplesSplit: minSamplesSplit, minSamplesLeaf: minSamplesLeaf,
      minImpurityDecrease: minImpurityDecrease, randomState: 0)
    let grown = Grown(count: seeds.count)
    let bootstrap = bootstrap
    // A worker takes the next tree not yet taken; each tree's result depends on its seed alone.
    let workers = min(seeds.count, Self.workerCount)
    let next = Counter()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while let t = next.take(below: seeds.count) {
        var configuration = tree
        configuration.randomState = seeds[t]
        var builder = TreeBuilder(configuration)
        builder.maxFeatures = features
        do throws(ModelError) {
          let result: TreeBuilder.Result
          if bootstrap {
            let counts = Self.bootstrapCounts(seed: seeds[t], rows: rows, samples: samples)
            let drawn = counts.indices.filter { counts[$0] > 0 }
            result = try builder.build(
              x.selecting(rows: drawn), labels: drawn.map { labels[$0] }, weights: drawn.map { counts[$0] },
              classCount: classCount)
          } else {
            result = try builder.build(x, labels: labels, classCount: classCount)
          }
          grown.set(
            t,
            .success(
              FittedDecisionTree(
                nodes: result.nodes, classCounts: result.classCounts, classCount: classCount,
                featureCount: x.columns, depth: result.depth, configuration: configuration, growth: nil)))
        } catch {
          grown.set(t, .failure(error))
        }
      }
    }
    var trees: [FittedDecisionTree] = []
    trees.reserveCapacity(seeds.count)
    for result in grown.results() {
      switch result {
      case .success(let tree): trees.append(tree)
      case .failure(let error): throw error
      }
    }
    return FittedRandomForest(trees: trees, classCount: classCount, featureCount: x.columns, configuration: self)
  }

  /// Threads a forest grows its trees on: the machine's cores (folds may run beside it; the trees' results do
  /// not depend on it).
  static var workerCount: Int { max(1, min(workerLimit ?? .max, ProcessInfo.processInfo.activeProcessorCount)) }

  /// At most this many threads for the forests fitted in this task, for tests that compare thread counts.
  @TaskLocal static var workerLimit: Int?

  /// Trees as they finish, by index.
  private final class Grown: Sendable {
    private let slots: Mutex<[Result<FittedDecisionTree, ModelError>?]>
    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
    func set(_ index: Int, _ result: Result<FittedDecisionTree, ModelError>) { slots.withLock { $0[index] = result } }
    func results() -> [Result<FittedDecisionTree, ModelError>] { slots.withLock { $0.map { $0! } } }
  }

  /// The next tree index to grow.
  private final class Counter: Sendable {
    private let value = Mutex(0)
    func take(below limit: Int) -> Int? {
      value.withLock { value in
        guard value < limit else { return nil }
        defer { value += 1 }
        return value
      }
    }
  }
}

/// A grown forest: its trees in seed order.
public struct FittedRandomForest: FittedClassifier {
  public let trees: [FittedDecisionTree]
  public let classCount: Int
  public let featureCount: Int
  /// The settings it was grown with.
  public let configuration: RandomForest

  /// The trees' nodes: a threshold and a feature per split, class shares per leaf.
  public var parameterCount: Int { trees.reduce(0) { $0 + $1.parameterCount } }

  /// Nodes over all trees.
  public var nodeCount: Int { trees.reduce(0) { $0 + $1.nodes.count } }

  /// The trees' class shares, added in tree order and divided by their number, as scikit-learn's
  /// `predict_proba` accumulates them.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    var sums = [Double](repeating: 0, count: x.rows * classCount)
    for tree in trees {
      let shares = tree.predictProbabilities(x).values
      for i in sums.indices { sums[i] += shares[i] }
    }
    let count = Double(trees.count)
    for i in sums.indices { sums[i] /= count }
    return Matrix(rows: x.rows, columns: classCount, values: sums)
  }

  /// Every tree as it routes rows, its leaves' class shares over the tree count, summed with no transform.
  public func exportForm() throws(ExportFormError) -> ExportForm {
    let scale = 1 / Double(trees.count)
    var formTrees: [TreeEnsembleForm.Tree] = []
    formTrees.reserveCapacity(trees.count)
    for tree in trees {
      guard case .tree(let form) = try tree.exportForm() else { preconditionFailure("a decision tree states a tree") }
      formTrees.append(
        TreeEnsembleForm.Tree(
          nodes: form.nodes, values: form.shares.map { $0 * scale }, valueCount: classCount, firstScore: 0))
    }
    return .treeEnsemble(
      TreeEnsembleForm(
        trees: formTrees, scoreCount: classCount, baseScores: Array(repeating: 0, count: classCount), transform: .none,
        classCount: classCount, featureCount: featureCount))
  }
}
