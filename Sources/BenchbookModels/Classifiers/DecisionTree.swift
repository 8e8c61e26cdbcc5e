import BenchbookData

/// A CART classification tree: scikit-learn's `DecisionTreeClassifier()`.
///
/// Best split by Gini impurity (or entropy), grown until leaves are pure unless
/// a limit stops it; a row goes left when `x[feature] <= threshold`; a leaf
/// predicts the class shares of its training rows. Like scikit-learn, the tree
/// sees features rounded to float32. Equally good splits are common (integer
/// features, small nodes) and decide the tree: scikit-learn takes the feature
/// its seeded shuffle visits first, and so does Benchbook with the same
/// `random_state` (default 0), growing the very tree
/// `DecisionTreeClassifier(random_state=0)` grows. `random_state: none` takes
/// the first feature in column order instead. Within a feature the lowest
/// threshold wins. See `TreeBuilder` and `FeatureVisitOrder`.
public struct DecisionTree: Classifier, Hashable, Codable {
  /// The impurity a split minimises (scikit-learn's `criterion`).
  public enum Criterion: String, Sendable, Hashable, Codable, CaseIterable {
    case gini
    /// Shannon entropy in nats; `log_loss` is scikit-learn's other name for it.
    case entropy
    case logLoss = "log_loss"
  }

  public var criterion: Criterion
  /// Deepest level a node may sit at (the root is depth 0); `nil` grows until pure.
  public var maxDepth: Int?
  /// Fewest rows a node needs to be split; at least 2.
  public var minSamplesSplit: Int
  /// Fewest rows each child of a split must get; at least 1.
  public var minSamplesLeaf: Int
  /// A split must lower the weighted impurity by at least this much; at least 0.
  public var minImpurityDecrease: Double
  /// scikit-learn's `random_state`: seeds the order in which each node visits
  /// its features, which decides equal-gain splits, so the same seed grows the
  /// same tree as `DecisionTreeClassifier(random_state:)`. `nil` visits features
  /// in column order (scikit-learn has no such mode; `None` there means unseeded).
  public var randomState: Int?

  /// Seeds NumPy's `RandomState` accepts.
  public static let randomStates = 0...Int(UInt32.max)

  public init(
    criterion: Criterion = .gini, maxDepth: Int? = nil, minSamplesSplit: Int = 2, minSamplesLeaf: Int = 1,
    minImpurityDecrease: Double = 0, randomState: Int? = 0
  ) {
    precondition(maxDepth.map { $0 >= 1 } ?? true, "max depth must be at least 1")
    precondition(minSamplesSplit >= 2, "min samples split must be at least 2")
    precondition(minSamplesLeaf >= 1, "min samples leaf must be at least 1")
    precondition(minImpurityDecrease >= 0, "min impurity decrease must not be negative")
    precondition(randomState.map(Self.randomStates.contains) ?? true, "random state must be in 0...2^32-1")
    self.criterion = criterion
    self.maxDepth = maxDepth
    self.minSamplesSplit = minSamplesSplit
    self.minSamplesLeaf = minSamplesLeaf
    self.minImpurityDecrease = minImpurityDecrease
    self.randomState = randomState
  }

  /// Reads `criterion`, `max_depth`, `min_samples_split`, `min_samples_leaf`, `min_impurity_decrease`,
  /// `random_state` (default 0; `none` for column order).
  public init(settings: inout SettingsReader) throws(SettingError) {
    let word = try settings.choice("criterion", options: Criterion.allCases.map(\.rawValue), default: "gini")
    criterion = Criterion(rawValue: word)!
    maxDepth = try settings.optionalInt("max_depth", requirement: "none or at least 1") { $0 >= 1 }
    minSamplesSplit = try settings.int("min_samples_split", default: 2, requirement: "at least 2") { $0 >= 2 }
    minSamplesLeaf = try settings.int("min_samples_leaf", default: 1, requirement: "at least 1") { $0 >= 1 }
    minImpurityDecrease = try settings.double(
      "min_impurity_decrease", default: 0, requirement: "at least 0", isValid: { $0 >= 0 })
    randomState = try settings.optionalInt(
      "random_state", default: 0, requirement: "none or 0 to \(UInt32.max)", isValid: Self.randomStates.contains)
    try settings.finish(known: Self.settingsSchema.flatMap(\.spellings))
  }

  public static let settingsSchema: [SettingDescriptor] = [
    SettingDescriptor(
      "criterion", type: .word(Criterion.allCases.map(\.rawValue)), default: .string("gini"), searchable: true),
    SettingDescriptor("max_depth", type: .optionalWholeNumber, default: .none, searchable: true),
    SettingDescriptor("min_samples_split", type: .wholeNumber, default: .int(2), searchable: true),
    SettingDescriptor("min_samples_leaf", type: .wholeNumber, default: .int(1), searchable: true),
    SettingDescriptor("min_impurity_decrease", type: .number, default: .double(0), searchable: true),
    // A seed picks among equally good trees; searching over seeds would tune noise.
    SettingDescriptor("random_state", type: .optionalWholeNumber, default: .int(0), searchable: false),
  ]

  public var parameters: [String: ParameterValue] {
    [
      "criterion": .string(criterion.rawValue), "max_depth": maxDepth.map { .int($0) } ?? .none,
      "min_samples_split": .int(minSamplesSplit), "min_samples_leaf": .int(minSamplesLeaf),
      "min_impurity_decrease": .double(minImpurityDecrease), "random_state": randomState.map { .int($0) } ?? .none,
    ]
  }

  /// Configurations that differ only in `max_depth` share one tree, grown to
  /// the deepest of them and cut back for each, with the subtrees grown again
  /// where a seeded shallower growth breaks a tie another way
  /// (`FittedDecisionTree.grown(as:x:labels:)`); configurations of another
  /// shape grow the deepest of themselves, and so on.
  public static func sharedFits(_ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [FittedDecisionTree]
  {
    try sharedFits(configurations, x: x, labels: labels) { (deepest: Self) throws(ModelError) in
      try deepest.fit(x, labels: labels, classCount: classCount, recordingGrowth: true)
    }
  }

  /// `sharedFits` on the rows `rows` visits of the matrix `presorted` was sorted from, the deepest tree grown
  /// from the shared sorted lists filtered to them instead of from `x` sorted: the same trees, bit for bit.
  /// - Parameters:
  ///   - x: those rows gathered in the order `rows` visits them, which a shallower seeded tree that breaks a tie
  ///     another way regrows its subtrees from.
  ///   - labels: their labels, in that order.
  public static func sharedFits(
    _ configurations: [Self], presorted: FeaturePresort, rows: FeaturePresort.RowRuns, labelOfRow: [Int],
    gathered x: Matrix, labels: [Int], classCount: Int
  ) throws(ModelError) -> [FittedDecisionTree] {
    try sharedFits(configurations, x: x, labels: labels) { (deepest: Self) throws(ModelError) in
      try deepest.fit(
        presorted: presorted, rows: rows, labelOfRow: labelOfRow, classCount: classCount, wideEntries: false,
        recordingGrowth: true)
    }
  }

  /// The loop both `sharedFits` run, `grow` growing the deepest configuration left with its growth recorded.
  private static func sharedFits(
    _ configurations: [Self], x: Matrix, labels: [Int],
    growingDeepest grow: (Self) throws(ModelError) -> FittedDecisionTree
  ) throws(ModelError) -> [FittedDecisionTree] {
    var out = [FittedDecisionTree?](repeating: nil, count: configurations.count)
    while let deepest = configurations.indices.filter({ out[$0] == nil }).max(by: {
      (configurations[$0].maxDepth ?? .max) < (configurations[$1].maxDepth ?? .max)
    }) {
      let tree = try grow(configurations[deepest])
      var nodeRows: TreeNodeRows?
      for index in configurations.indices where out[index] == nil {
        out[index] = try tree.grown(as: configurations[index], x: x, labels: labels, nodeRows: &nodeRows)
      }
    }
    return out.map { $0! }
  }

  /// Grows the tree. Throws when a feature value is not finite in float32.
  /// - Complexity: O(n log n × features) to sort, then O(rows × features) per node.
  public func fit(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError) -> FittedDecisionTree {
    try fit(consume x, labels: labels, classCount: classCount, with: TreeBuilder(self))
  }

  /// `fit`, keeping with a seed the record of each node's search (`TreeGrowth`, 24 bytes a node up to 64 features,
  /// and 4 a row) that `FittedDecisionTree.serves` replays to cut the tree for shallower limits; a fit alone keeps
  /// none.
  public func fit(_ x: Matrix, labels: [Int], classCount: Int, recordingGrowth: Bool) throws(ModelError)
    -> FittedDecisionTree
  {
    try fit(x, labels: labels, classCount: classCount, with: TreeBuilder(self, recordingGrowth: recordingGrowth))
  }

  /// `fit` on the dataset rows `rows` (each at most once) of the matrix `presorted` was sorted from: the same
  /// tree, grown from the shared sorted lists filtered to these rows instead of from the rows gathered and
  /// sorted, which is what many folds of one dataset save.
  /// - Parameters:
  ///   - rows: visits the rows run by run (`FeaturePresort.RowRuns`).
  ///   - labelOfRow: the label of every row of the sorted matrix, by row (the dataset's labels as they are, so
  ///     a fold copies none); those of `rows` are in `0..<classCount`.
  public func fit(presorted: FeaturePresort, rows: FeaturePresort.RowRuns, labelOfRow: [Int], classCount: Int)
    throws(ModelError) -> FittedDecisionTree
  {
    try fit(presorted: presorted, rows: rows, labelOfRow: labelOfRow, classCount: classCount, wideEntries: false)
  }

  /// `fit(presorted:rows:labelOfRow:classCount:)`, with the entries in 8 bytes when `wideEntries` (for tests, as
  /// `fitWithWideEntries`), and with a seed the growth recorded when `recordingGrowth` (for `sharedFits`).
  @_spi(Testing) public func fit(
    presorted: FeaturePresort, rows: FeaturePresort.RowRuns, labelOfRow: [Int], classCount: Int, wideEntries: Bool,
    recordingGrowth: Bool = false
  ) throws(ModelError) -> FittedDecisionTree {
    var builder = TreeBuilder(self, recordingGrowth: recordingGrowth)
    builder.widensEntries = wideEntries
    let result = try builder.build(presorted: presorted, rows: rows, labelOfRow: labelOfRow, classCount: classCount)
    return FittedDecisionTree(
      nodes: result.nodes, classCounts: result.classCounts, classCount: classCount,
      featureCount: presorted.featureCount, depth: result.depth, configuration: self, growth: result.growth)
  }

  /// `fit` with the sorted lists' entries in 8 bytes, as data too large for 4 would have them: for tests, which
  /// compare the two widths on data small enough for both.
  @_spi(Testing) public func fitWithWideEntries(_ x: Matrix, labels: [Int], classCount: Int) throws(ModelError)
    -> FittedDecisionTree
  {
    var builder = TreeBuilder(self)
    builder.widensEntries = true
    return try fit(x, labels: labels, classCount: classCount, with: builder)
  }

  private func fit(_ x: consuming Matrix, labels: [Int], classCount: Int, with builder: TreeBuilder)
    throws(ModelError) -> FittedDecisionTree
  {
    precondition(labels.count == x.rows, "one label per row")
    let featureCount = x.columns
    let result = try builder.build(consume x, labels: labels, classCount: classCount)
    return FittedDecisionTree(
      nodes: result.nodes, classCounts: result.classCounts, classCount: classCount, featureCount: featureCount,
      depth: result.depth, configuration: self, growth: result.growth)
  }
}

/// A grown tree: nodes in depth-first order (left child first), root at index 0,
/// numbered as scikit-learn's `tree_` numbers them.
public struct FittedDecisionTree: FittedClassifier {
  /// One node; at a leaf, `feature`, `left` and `right` are -1 and `threshold` is 0.
  public struct Node: Sendable, Hashable, Codable {
    /// Column tested.
    public var feature: Int
    /// Rows with `Float(x[feature]) <= threshold` go left. Lies strictly between
    /// two float32 training values, so comparing the unrounded double gives the
    /// same answer except at that float32 rounding boundary. A missing (NaN)
    /// value follows the child that got more training rows, as in scikit-learn
    /// when training saw no missing values.
    public var threshold: Double
    /// Child indices into `nodes`.
    public var left: Int
    public var right: Int
    /// Training rows that reached the node.
    public var sampleCount: Int
    /// The criterion's impurity of those rows.
    public var impurity: Double

    public init(feature: Int, threshold: Double, left: Int, right: Int, sampleCount: Int, impurity: Double) {
      self.feature = feature
      self.threshold = threshold
      self.left = left
      self.right = right
      self.sampleCount = sampleCount
      self.impurity = impurity
    }

    public var isLeaf: Bool { left < 0 }
  }

  public let nodes: [Node]
  /// Training rows of each class at each node, node-major: node i's counts are
  /// `classCounts[i * classCount ..< (i + 1) * classCount]`.
  public let classCounts: [Int]
  public let classCount: Int
  public let featureCount: Int
  /// Depth of the deepest leaf (a lone root is depth 0).
  public let depth: Int
  /// The settings it was grown with.
  public let configuration: DecisionTree
  /// A seeded growth's record, for `serves`; `nil` without a seed, unless asked for (`fit(_:labels:classCount:
  /// recordingGrowth:)`) and once cut.
  let growth: TreeGrowth?
  /// Class shares per node, node-major; what a leaf predicts.
  private let shares: [Double]

  init(
    nodes: [Node], classCounts: [Int], classCount: Int, featureCount: Int, depth: Int, configuration: DecisionTree,
    growth: TreeGrowth?
  ) {
    self.nodes = nodes
    self.classCounts = classCounts
    self.classCount = classCount
    self.featureCount = featureCount
    self.depth = depth
    self.configuration = configuration
    self.growth = growth
    var shares = [Double](repeating: 0, count: classCounts.count)
    for i in nodes.indices {
      // The node's weight: its rows, or their bootstrap counts in a forest's tree (whole numbers, so exact).
      var rows = 0
      for c in 0..<classCount { rows += classCounts[i * classCount + c] }
      let weight = Double(rows)
      for c in 0..<classCount { shares[i * classCount + c] = Double(classCounts[i * classCount + c]) / weight }
    }
    self.shares = shares
  }

  /// Whether `other`, grown on the same rows, would grow this tree cut at its `max_depth`.
  ///
  /// Growth is top-down and a node's split never depends on the depth limit,
  /// so without a seed the cut tree is always the tree grown to that depth.
  /// With a seed, a node that the shallower limit makes a leaf draws nothing
  /// from the shared feature order, and the nodes after it may break a tie
  /// another way: the recorded growth replays the draws to tell (`TreeGrowth`),
  /// and a seeded tree grown without that record serves no shallower limit.
  /// A limit deeper than every node grown cuts nothing.
  public func serves(_ other: DecisionTree) -> Bool {
    var shape = other
    shape.maxDepth = configuration.maxDepth
    guard shape == configuration else { return false }
    let limit = other.maxDepth ?? .max
    let grownTo = configuration.maxDepth ?? .max
    if limit == grownTo || limit > depth && depth < grownTo { return true }
    guard limit < grownTo else { return false }
    guard let randomState = configuration.randomState else { return true }
    let replayed = try? growth?.replay(to: limit, tree: self, randomState: randomState) { _, _, _ in nil }
    return replayed != nil
  }

  /// The tree `other` grows on this tree's training rows `x` and `labels` (in the order it was grown on them: the
  /// growth recorded its leaves' rows by position), made from this tree: cut at its
  /// `max_depth` (`truncated`) where that is `other`'s tree (`serves`), and otherwise cut with the subtrees
  /// grown again whose seeded draws pick another split than this growth did (`TreeGrowth.replay`). `nil`
  /// when `other` differs in more than its `max_depth`, or asks for a deeper tree than this one.
  public func grown(as other: DecisionTree, x: Matrix, labels: [Int]) throws(ModelError) -> FittedDecisionTree? {
    var nodeRows: TreeNodeRows?
    return try grown(as: other, x: x, labels: labels, nodeRows: &nodeRows)
  }

  /// `grown(as:x:labels:)`, with this tree's rows by node made once for every `other` it serves.
  func grown(as other: DecisionTree, x: Matrix, labels: [Int], nodeRows: inout TreeNodeRows?)
    throws(ModelError) -> FittedDecisionTree?
  {
    precondition(x.rows == nodes[0].sampleCount && labels.count == x.rows, "the rows this tree was grown on")
    var shape = other
    shape.maxDepth = configuration.maxDepth
    guard shape == configuration else { return nil }
    let limit = other.maxDepth ?? .max
    guard limit < configuration.maxDepth ?? .max, limit <= depth, let randomState = configuration.randomState,
      let growth
    else { return cut(to: other) }
    let replayed = try growth.replay(to: limit, tree: self, randomState: randomState) {
      node, root, order throws(ModelError) in
      if nodeRows == nil { nodeRows = TreeNodeRows(self, growth: growth) }
      let rows = nodeRows!.rows(of: node)
      return try TreeBuilder(other).build(
        x.selecting(rows: rows), labels: rows.map { labels[$0] }, classCount: classCount, root: root,
        visitOrder: &order)
    }
    guard let replayed else { return nil }
    return FittedDecisionTree(
      nodes: replayed.nodes, classCounts: replayed.classCounts, classCount: classCount, featureCount: featureCount,
      depth: replayed.depth, configuration: other, growth: nil)
  }

  /// This tree as `other` grows it on the same rows, when it `serves` it.
  public func cut(to other: DecisionTree) -> FittedDecisionTree? {
    serves(other) ? truncated(to: other) : nil
  }

  /// The tree cut at `other`'s `max_depth` (nodes at that depth become leaves, numbered depth-first, left
  /// child first, as a grown tree is) and labelled as grown with `other`, whether or not that is `other`'s fit.
  public func truncated(to other: DecisionTree) -> FittedDecisionTree {
    let limit = other.maxDepth ?? .max
    guard limit < depth else {
      return FittedDecisionTree(
        nodes: nodes, classCounts: classCounts, classCount: classCount, featureCount: featureCount, depth: depth,
        configuration: other, growth: nil)
    }
    var kept: [Node] = []
    var counts: [Int] = []
    var deepest = 0
    // Preorder walk; children are linked once both subtrees are numbered.
    func visit(_ node: Int, _ level: Int) -> Int {
      let index = kept.count
      var copy = nodes[node]
      deepest = max(deepest, level)
      counts.append(contentsOf: classCounts(ofNode: node))
      if copy.isLeaf || level == limit {
        copy.feature = -1
        copy.threshold = 0
        copy.left = -1
        copy.right = -1
        kept.append(copy)
        return index
      }
      kept.append(copy)
      let left = visit(nodes[node].left, level + 1)
      let right = visit(nodes[node].right, level + 1)
      kept[index].left = left
      kept[index].right = right
      return index
    }
    _ = visit(0, 0)
    return FittedDecisionTree(
      nodes: kept, classCounts: counts, classCount: classCount, featureCount: featureCount, depth: deepest,
      configuration: other, growth: nil)
  }

  /// A tree that serves `configuration` is its fit, cut (`serves`).
  public func reconfigured(as configuration: any Classifier) -> (any FittedClassifier)? {
    (configuration as? DecisionTree).flatMap(cut(to:))
  }

  /// Training rows of each class at one node.
  public func classCounts(ofNode node: Int) -> ArraySlice<Int> {
    classCounts[(node * classCount)..<((node + 1) * classCount)]
  }

  /// Class shares at one node: a leaf's prediction.
  public func probabilities(ofNode node: Int) -> ArraySlice<Double> {
    shares[(node * classCount)..<((node + 1) * classCount)]
  }

  public var leafCount: Int { nodes.count { $0.isLeaf } }

  /// A feature index and a threshold per internal node, plus `classCount`
  /// class values per leaf (child links are structure, not counted).
  public var parameterCount: Int {
    let leaves = leafCount
    return 2 * (nodes.count - leaves) + classCount * leaves
  }

  /// The leaf each row of `x` lands in (scikit-learn's `apply`).
  ///
  /// A deep tree's nodes do not stay in cache (the flagship's hold a hundred thousand), so a step down is
  /// mostly a wait for memory. From `walkLanes` rows on, the walk keeps that many rows on their way down at
  /// once, one step of each in turn, so that their waits overlap; a row that reaches its leaf hands its lane to
  /// the next row. Fewer rows (a single row, as the latency timing predicts) walk one after another, with
  /// nothing to keep in lanes. Either way every row takes the path it would take alone (`child`).
  public func leaves(_ x: Matrix) -> [Int] {
    precondition(x.columns == featureCount, "tree fitted on \(featureCount) columns, given \(x.columns)")
    let (rows, columns, lanes) = (x.rows, featureCount, Self.walkLanes)
    var out = [Int](repeating: 0, count: rows)
    nodes.withUnsafeBufferPointer { nodes in
      x.values.withUnsafeBufferPointer { values in
        out.withUnsafeMutableBufferPointer { out in
          guard rows >= lanes else {
            for r in 0..<rows {
              var node = 0
              while nodes[node].left >= 0 { node = Self.child(of: node, values.baseAddress! + r * columns, nodes) }
              out[r] = node
            }
            return
          }
          // Lane l walks row `row[l]` (−1 once no row is left for it) and stands at node `at[l]`. A constant
          // size keeps the buffer on the stack without a check of the room left there.
          withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { lane in
            let (at, row) = (lane.baseAddress!, lane.baseAddress! + lanes)
            for l in 0..<lanes {
              at[l] = 0
              row[l] = l
            }
            var next = lanes
            var walking = lanes
            while walking > 0 {
              for l in 0..<lanes where row[l] >= 0 {
                let node = at[l]
                guard nodes[node].left < 0 else {
                  at[l] = Self.child(of: node, values.baseAddress! + row[l] * columns, nodes)
                  continue
                }
                out[row[l]] = node
                at[l] = 0
                if next < rows {
                  row[l] = next
                  next += 1
                } else {
                  row[l] = -1
                  walking -= 1
                }
              }
            }
          }
        }
      }
    }
    return out
  }

  /// The child of the internal node `node` that the row at `row` goes to: left when its value of the node's
  /// feature, in float32, is at most the threshold, and when that value is missing (NaN) the child that saw more
  /// training rows.
  @inline(__always)
  private static func child(of node: Int, _ row: UnsafePointer<Double>, _ nodes: UnsafeBufferPointer<Node>) -> Int {
    let split = nodes[node]
    let value = Double(Float(row[split.feature]))
    if value.isNaN { return missingGoesLeft(split, nodes) ? split.left : split.right }
    return value <= split.threshold ? split.left : split.right
  }

  /// Whether a missing value goes to `split`'s left child: the child that saw more training rows, as in
  /// scikit-learn when training saw no missing values. Prediction (`child`) and the exports (`exportForm`) both
  /// ask here, so a file sends a missing value where Benchbook does.
  @inline(__always)
  private static func missingGoesLeft<Nodes: RandomAccessCollection<Node>>(_ split: Node, _ nodes: Nodes) -> Bool
  where Nodes.Index == Int {
    nodes[split.left].sampleCount > nodes[split.right].sampleCount
  }

  /// Rows `leaves` walks down at once: half its buffer of 16.
  static let walkLanes = 8

  /// The class shares of the leaf each row lands in.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    let leaves = leaves(x)
    let classCount = classCount
    let values = [Double](unsafeUninitializedCapacity: x.rows * classCount) { out, initialized in
      shares.withUnsafeBufferPointer { shares in
        for (r, leaf) in leaves.enumerated() {
          for c in 0..<classCount {
            (out.baseAddress! + r * classCount + c).initialize(to: shares[leaf * classCount + c])
          }
        }
      }
      initialized = x.rows * classCount
    }
    return Matrix(rows: x.rows, columns: classCount, values: values)
  }
}

extension FittedDecisionTree {
  /// Its nodes as grown; a missing value follows the child that saw more training rows, as `leaves` sends it.
  public func exportForm() throws(ExportFormError) -> ExportForm {
    let formNodes = nodes.map { node in
      node.isLeaf
        ? TreeForm.Node.leaf
        : TreeForm.Node(
          feature: node.feature, threshold: node.threshold, left: node.left, right: node.right,
          missingGoesLeft: Self.missingGoesLeft(node, nodes))
    }
    var shares: [Double] = []
    shares.reserveCapacity(nodes.count * classCount)
    for i in nodes.indices { shares += probabilities(ofNode: i) }
    return .tree(TreeForm(nodes: formNodes, shares: shares, classCount: classCount, featureCount: featureCount))
  }
}
