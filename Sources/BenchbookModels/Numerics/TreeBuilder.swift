import BenchbookData
import Foundation

/// Grows a CART classification tree the way scikit-learn's `DepthFirstTreeBuilder`
/// with the `best` splitter does, seeded feature order included.
///
/// Speed comes from sorting each feature once at the root: every feature keeps
/// a list of the rows sorted by its value, and a node owns the same range
/// `start..<end` in every list. Choosing a split scans each list once; applying
/// it partitions each list stably, so both children stay sorted (a feature
/// constant at the node is never scanned below it, so its list is left as is).
/// A node costs O(rows × features) instead of a sort per feature per node.
///
/// Faithful to scikit-learn 1.9.1 (`_splitter.pyx`, `_criterion.pyx`, `_tree.pyx`):
/// - features are rounded to `Float` (float32) before anything else, and values
///   within 1e-7 (`FEATURE_THRESHOLD`, added in float32) of their predecessor in
///   sorted order count as equal;
/// - thresholds are `lower/2 + upper/2` in double between consecutive distinct
///   float32 values; with float32 operands and double arithmetic the result always
///   lies strictly between them, so the guard older scikit-learn versions had
///   against a midpoint rounding up to the upper value is not needed;
/// - candidate splits are compared by the same "proxy" improvement, with the
///   same floating-point operations, so near-ties resolve identically;
/// - stopping rules: depth, `min_samples_split` (raised to `2·min_samples_leaf`),
///   `min_samples_leaf`, impurity ≤ ε, `improvement + ε < min_impurity_decrease`;
/// - nodes are numbered depth-first, left child first;
/// - a node visits its features in the order `FeatureVisitOrder` draws (column
///   order without a seed) and keeps a candidate only if it is strictly better,
///   so among equally good splits the first feature visited wins and, within a
///   feature, the lowest threshold. Constant features are found in O(1) from
///   the sorted lists, without scanning them.
struct TreeBuilder {
  let criterion: DecisionTree.Criterion
  let maxDepth: Int
  let minSamplesSplit: Int
  let minSamplesLeaf: Int
  let minImpurityDecrease: Double
  let randomState: Int?

  /// scikit-learn's `FEATURE_THRESHOLD`, a float32 constant.
  static let featureTolerance: Float = 1e-7

  struct Result {
    var nodes: [FittedDecisionTree.Node]
    var classCounts: [Int]
    var depth: Int
    /// With a seed, what each node's search saw (`TreeGrowth`).
    var growth: TreeGrowth?
  }

  /// Whether a seeded growth keeps its `TreeGrowth` (24 bytes a node up to 64 features, and 4 a row), which only
  /// shared fits replay.
  let recordsGrowth: Bool

  /// Whether entries take 8 bytes even where 4 hold a row and its label; only tests ask, to check that
  /// both widths grow the same tree.
  var widensEntries = false

  /// Features a node draws before it stops looking (scikit-learn's `max_features` as a count); `nil` draws every
  /// one. A forest's trees set it; a seed is needed for it to take effect (`FeatureVisitOrder`).
  var maxFeatures: Int?

  init(_ config: DecisionTree, recordingGrowth: Bool = false) {
    recordsGrowth = recordingGrowth && config.randomState != nil
    criterion = config.criterion
    maxDepth = config.maxDepth ?? Int(Int32.max)
    minSamplesLeaf = config.minSamplesLeaf
    minSamplesSplit = max(config.minSamplesSplit, 2 * config.minSamplesLeaf)
    minImpurityDecrease = config.minImpurityDecrease
    randomState = config.randomState
  }

  /// A node waiting to be created; its class counts wait on a parallel stack.
  private struct Pending {
    var start: Int
    var end: Int
    var depth: Int
    var parent: Int
    var isLeft: Bool
    var impurity: Double
    /// Features known to be constant here (`FeatureVisitOrder`).
    var constants: Int
    /// A feature whose list holds exactly this node's rows in `start..<end`: the parent's split feature (lists
    /// of features constant at an ancestor are left unpartitioned), any feature at the root.
    var rowListFeature: Int
  }

  /// Where a growth starts: the root of the whole tree by default, or a node of a larger tree whose rows
  /// are `x` (its depth, the constants its parent knew, and the rows of the whole fit, which weigh every
  /// improvement).
  struct Root {
    var depth = 0
    var knownConstants = 0
    var totalRows: Int?
  }

  /// - Parameter x: consumed; the rows are needed only for the sort, and a caller that hands over the
  ///   last reference has them freed before the growth.
  func build(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError) -> Result {
    var visitOrder = FeatureVisitOrder(featureCount: x.columns, randomState: randomState)
    return try build(consume x, labels: labels, classCount: classCount, root: Root(), visitOrder: &visitOrder)
  }

  /// `build` with a whole-number weight per row, as scikit-learn grows a forest's tree on a bootstrap sample:
  /// each distinct row drawn once, weighted by how often it was drawn. Impurities, improvements and leaf counts
  /// weigh rows; `min_samples_leaf` and `min_samples_split` count them.
  func build(_ x: consuming Matrix, labels: [Int], weights: [Int], classCount: Int) throws(ModelError) -> Result {
    precondition(weights.count == labels.count && weights.allSatisfy { $0 >= 1 }, "a weight of at least 1 per row")
    let n = x.rows
    let featureCount = x.columns
    try Self.checkRowCount(n)
    var visitOrder = FeatureVisitOrder(featureCount: featureCount, randomState: randomState)
    var classCounts = [Int](repeating: 0, count: classCount)
    for (label, weight) in zip(labels, weights) { classCounts[label] += weight }
    let rowWeights = weights.map(Double.init)
    if let labelShift = narrowLabelShift(rows: n, classCount: classCount) {
      var (values, entries) = try Self.sortedLists(
        consume x, labels: labels, entry: UInt32.self, labelShift: labelShift)
      return grow(
        values: &values, entries: &entries, rows: n, featureCount: featureCount, classCounts: classCounts,
        root: Root(totalRows: classCounts.reduce(0, +)), visitOrder: &visitOrder, labelShift: labelShift,
        weights: rowWeights)
    }
    var (values, entries) = try Self.sortedLists(consume x, labels: labels, entry: UInt64.self, labelShift: 32)
    return grow(
      values: &values, entries: &entries, rows: n, featureCount: featureCount, classCounts: classCounts,
      root: Root(totalRows: classCounts.reduce(0, +)), visitOrder: &visitOrder, labelShift: 32, weights: rowWeights)
  }

  /// Grows the tree below `root` on its rows `x`, drawing feature orders from `visitOrder` (left as the
  /// growth leaves it, so a caller can go on drawing for the nodes after this subtree).
  func build(
    _ x: consuming Matrix, labels: [Int], classCount: Int, root: Root, visitOrder: inout FeatureVisitOrder
  ) throws(ModelError) -> Result {
    let n = x.rows
    let featureCount = x.columns
    try Self.checkRowCount(n)
    var classCounts = [Int](repeating: 0, count: classCount)
    for label in labels { classCounts[label] += 1 }
    if let labelShift = narrowLabelShift(rows: n, classCount: classCount) {
      var (values, entries) = try Self.sortedLists(
        consume x, labels: labels, entry: UInt32.self, labelShift: labelShift)
      return grow(
        values: &values, entries: &entries, rows: n, featureCount: featureCount, classCounts: classCounts,
        root: root, visitOrder: &visitOrder, labelShift: labelShift)
    }
    var (values, entries) = try Self.sortedLists(consume x, labels: labels, entry: UInt64.self, labelShift: 32)
    return grow(
      values: &values, entries: &entries, rows: n, featureCount: featureCount, classCounts: classCounts, root: root,
      visitOrder: &visitOrder, labelShift: 32)
  }

  /// Grows the tree on the dataset rows `rows` (each at most once) from lists sorted once for every fit
  /// (`FeaturePresort`): the same tree as `build` on those rows gathered, without gathering or sorting them.
  /// - Parameter labelOfRow: the label of every row of the sorted matrix, by row; nothing is copied per fit.
  func build(presorted: FeaturePresort, rows: FeaturePresort.RowRuns, labelOfRow: [Int], classCount: Int)
    throws(ModelError) -> Result
  {
    var n = 0
    rows { n += $0.count }
    try Self.checkRowCount(n)
    var visitOrder = FeatureVisitOrder(featureCount: presorted.featureCount, randomState: randomState)
    if let labelShift = narrowLabelShift(rows: n, classCount: classCount) {
      var (values, entries, classCounts) = presorted.lists(
        of: rows, labelOfRow: labelOfRow, classCount: classCount, entry: UInt32.self, labelShift: labelShift)
      return grow(
        values: &values, entries: &entries, rows: n, featureCount: presorted.featureCount, classCounts: classCounts,
        root: Root(), visitOrder: &visitOrder, labelShift: labelShift)
    }
    var (values, entries, classCounts) = presorted.lists(
      of: rows, labelOfRow: labelOfRow, classCount: classCount, entry: UInt64.self, labelShift: 32)
    return grow(
      values: &values, entries: &entries, rows: n, featureCount: presorted.featureCount, classCounts: classCounts,
      root: Root(), visitOrder: &visitOrder, labelShift: 32)
  }

  private static func checkRowCount(_ n: Int) throws(ModelError) {
    guard n > 0 else { throw ModelError("a decision tree needs at least one training row") }
    guard n < Int(UInt32.max) else { throw ModelError("a decision tree takes fewer than \(UInt32.max) rows") }
  }

  /// Entries pack a row with its label: in 4 bytes when both fit (two classes leave 31 bits for rows), the
  /// label in the high bits from this shift on; `nil` when they take 8, the label in the high half. Rows stay
  /// below `1 << shift` - 1, so an all-ones entry is never a row (`FeaturePresort` marks rows left out with it).
  private func narrowLabelShift(rows n: Int, classCount: Int) -> Int? {
    let labelBits = max(1, Int.bitWidth - (classCount - 1).leadingZeroBitCount)
    guard !widensEntries && labelBits < 32 && n < 1 << (32 - labelBits) else { return nil }
    return 32 - labelBits
  }

  /// Each feature's rows sorted by float32 value (ties by row), with the values, entries packing each row
  /// with its label (`narrowLabelShift`), so the split scan reads labels in order instead of looking them up.
  /// - Parameter x: consumed; the values are rounded into place first, feature-major and in row order, so
  ///   that the rows can go before the sort's own arrays exist.
  private static func sortedLists<Entry: FixedWidthInteger & UnsignedInteger>(
    _ x: consuming Matrix, labels: [Int], entry: Entry.Type, labelShift: Int
  ) throws(ModelError) -> (values: [Float], entries: [Entry]) {
    let n = x.rows
    let featureCount = x.columns
    var sortedValues = [Float](repeating: 0, count: featureCount * n)
    for f in 0..<featureCount {
      for i in 0..<n {
        let value = Float(x.values[i * featureCount + f])
        guard value.isFinite else {
          throw ModelError(
            "a decision tree needs finite feature values within float32 range; row \(i) column \(f) is \(x[i, f])")
        }
        sortedValues[f * n + i] = value
      }
    }
    // Freed here when the caller handed over its last reference.
    _ = consume x
    var sortedEntries = [Entry](repeating: 0, count: featureCount * n)
    var keys = [UInt64](repeating: 0, count: n)
    var spareKeys = [UInt64](repeating: 0, count: n)
    for f in 0..<featureCount {
      for i in 0..<n { keys[i] = UInt64(orderedBits(sortedValues[f * n + i])) << 32 | UInt64(i) }
      sortByHighHalf(&keys, spare: &spareKeys)
      for p in 0..<n {
        let row = Int(truncatingIfNeeded: keys[p] & 0xffff_ffff)
        sortedEntries[f * n + p] = Entry(labels[row]) << labelShift | Entry(row)
        sortedValues[f * n + p] = float(orderedBits: UInt32(truncatingIfNeeded: keys[p] >> 32))
      }
    }
    return (sortedValues, sortedEntries)
  }

  /// Grows the tree from each feature's sorted lists (`sortedLists`), which it reorders in place: a node
  /// owns the same range of every list.
  /// - Parameter weights: each row's weight, by row (`nil`: every row weighs 1).
  private func grow<Entry: FixedWidthInteger & UnsignedInteger>(
    values sortedValues: inout [Float], entries sortedEntries: inout [Entry], rows n: Int, featureCount: Int,
    classCounts: [Int], root: Root, visitOrder: inout FeatureVisitOrder, labelShift: Int, weights: [Double]? = nil
  ) -> Result {
    let classes = classCounts.count

    var nodes = [FittedDecisionTree.Node]()
    var nodeCounts = [Int]()
    // Reserved for a fully grown tree whose leaves hold two rows or more on average (n nodes at most), so it
    // is not copied and faulted in again at every doubling: a flagship fold grows 165,901 nodes on 294,611
    // rows, past the n / 2 + 1 once reserved. A depth limit or a leaf minimum bounds it lower, a larger tree
    // still grows its arrays as it goes, and a tree that ends far below it is trimmed (`trimmed`).
    let depthBound = maxDepth - root.depth < 30 ? (1 << (maxDepth - root.depth + 1)) - 1 : Int.max
    let leafBound = 2 * max(1, n / max(1, minSamplesLeaf)) - 1
    let reserved = min(n, depthBound, leafBound)
    nodes.reserveCapacity(reserved)
    nodeCounts.reserveCapacity(reserved * classes)
    var maxDepthSeen = 0
    // With a seed, each node's search is recorded: which features tied for its best split, which were constant.
    var growth = recordsGrowth ? TreeGrowth(featureCount: featureCount) : nil
    growth?.leafRows.reserveCapacity(n)
    let words = growth?.words ?? 0
    let nodeBest = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: words)
    let nodeConstant = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: words)
    defer {
      nodeBest.deallocate()
      nodeConstant.deallocate()
    }
    var stack = [Pending]()
    var countStack = [Double]()
    var goesLeft = [Bool](repeating: false, count: n)
    var spareEntries = [Entry](repeating: 0, count: n)
    var spareValues = [Float](repeating: 0, count: n)
    var leftCounts = [Double](repeating: 0, count: classes)
    var bestLeftCounts = [Double](repeating: 0, count: classes)
    var totals = [Double](repeating: 0, count: classes)
    let totalRows = Double(root.totalRows ?? n)
    let epsilon = Double.ulpOfOne
    let tolerance = Self.featureTolerance
    let rowMask: Entry = (1 << labelShift) - 1
    let drawsSome = (maxFeatures ?? featureCount) < featureCount

    countStack.append(contentsOf: classCounts.map(Double.init))
    stack.append(
      Pending(
        start: 0, end: n, depth: root.depth, parent: -1, isLeft: false, impurity: .infinity,
        constants: root.knownConstants, rowListFeature: 0))
    // Features to scan at the current node, in visiting order; a buffer, not an array, so the node loop
    // neither slices nor retains it (a tree of the flagship's holds a hundred thousand nodes).
    let visiting = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(1, featureCount))
    defer { visiting.deallocate() }

    sortedEntries.withUnsafeMutableBufferPointer { sortedEntries in
      sortedValues.withUnsafeMutableBufferPointer { sortedValues in
        goesLeft.withUnsafeMutableBufferPointer { goesLeft in
          spareEntries.withUnsafeMutableBufferPointer { spareEntries in
            spareValues.withUnsafeMutableBufferPointer { spareValues in
              leftCounts.withUnsafeMutableBufferPointer { leftCounts in
                bestLeftCounts.withUnsafeMutableBufferPointer { bestLeftCounts in
                  totals.withUnsafeMutableBufferPointer { totals in
                    while let record = stack.popLast() {
                      let start = record.start
                      let end = record.end
                      let count = end - start
                      for c in 0..<classes { totals[c] = countStack[countStack.count - classes + c] }
                      // Weighted, the node's weight is its class counts' sum (whole numbers, so exact).
                      let nodeRows = weights == nil ? Double(count) : totals.reduce(0, +)
                      // One at a time: `removeLast(_:)` goes through a general subrange replacement.
                      for _ in 0..<classes { countStack.removeLast() }
                      let impurity =
                        record.parent < 0 ? impurityOf(UnsafeBufferPointer(totals), nodeRows) : record.impurity

                      var isLeaf =
                        record.depth >= maxDepth || count < minSamplesSplit || count < 2 * minSamplesLeaf
                        || impurity <= epsilon

                      var bestFeature = -1
                      var bestPosition = end
                      var bestProxy = -Double.infinity
                      var constants = record.constants
                      var visitCount = 0  // features not constant here, in visiting order
                      var chosen = TreeGrowth.notSearched
                      if !isLeaf {
                        nodeBest.update(repeating: 0)
                        nodeConstant.update(repeating: 0)
                        (visitCount, constants) = visitOrder.visit(
                          knownConstants: record.constants,
                          isConstant: { f in
                            let values = sortedValues.baseAddress! + f * n
                            let constant = values[end - 1] <= values[start] + tolerance
                            if constant && words > 0 { TreeGrowth.set(nodeConstant, f) }
                            return constant
                          }, order: visiting.baseAddress!, maxFeatures: maxFeatures ?? featureCount)
                        // Strictly better only: the first feature visited keeps a tie.
                        for f in UnsafeBufferPointer(rebasing: visiting[0..<visitCount]) {
                          var equalled = false
                          let position =
                            if let weights {
                              scanWeighted(
                                values: sortedValues.baseAddress! + f * n,
                                entries: sortedEntries.baseAddress! + f * n, start: start, end: end,
                                totals: UnsafeBufferPointer(totals), nodeWeight: nodeRows, leftCounts: leftCounts,
                                bestLeftCounts: bestLeftCounts, bestProxy: &bestProxy, equalled: &equalled,
                                labelShift: labelShift, weights: weights)
                            } else {
                              bestSplit(
                                values: sortedValues.baseAddress! + f * n,
                                entries: sortedEntries.baseAddress! + f * n, start: start, end: end,
                                totals: UnsafeBufferPointer(totals), leftCounts: leftCounts,
                                bestLeftCounts: bestLeftCounts, bestProxy: &bestProxy, equalled: &equalled,
                                labelShift: labelShift)
                            }
                          if let position {
                            bestFeature = f
                            bestPosition = position
                            if words > 0 {
                              nodeBest.update(repeating: 0)
                              TreeGrowth.set(nodeBest, f)
                            }
                          } else if equalled && words > 0 {
                            TreeGrowth.set(nodeBest, f)
                          }
                        }
                        chosen = Int32(bestFeature)
                        if bestFeature < 0 { isLeaf = true }
                      }

                      var threshold = 0.0
                      var impurityLeft = 0.0
                      var impurityRight = 0.0
                      if !isLeaf {
                        let values = sortedValues.baseAddress! + bestFeature * n
                        threshold = Double(values[bestPosition - 1]) / 2 + Double(values[bestPosition]) / 2
                        let leftRows =
                          weights == nil
                          ? Double(bestPosition - start) : UnsafeBufferPointer(bestLeftCounts).reduce(0, +)
                        let rightRows = weights == nil ? Double(end - bestPosition) : nodeRows - leftRows
                        for c in 0..<classes { leftCounts[c] = totals[c] - bestLeftCounts[c] }  // right counts
                        impurityLeft = impurityOf(UnsafeBufferPointer(bestLeftCounts), leftRows)
                        impurityRight = impurityOf(UnsafeBufferPointer(leftCounts), rightRows)
                        let improvement =
                          (nodeRows / totalRows)
                          * (impurity - (rightRows / nodeRows * impurityRight)
                            - (leftRows / nodeRows * impurityLeft))
                        if improvement + epsilon < minImpurityDecrease { isLeaf = true }
                      }

                      let id = nodes.count
                      if record.parent >= 0 {
                        if record.isLeft { nodes[record.parent].left = id } else { nodes[record.parent].right = id }
                      }
                      nodes.append(
                        FittedDecisionTree.Node(
                          feature: isLeaf ? -1 : bestFeature, threshold: isLeaf ? 0 : threshold, left: -1, right: -1,
                          sampleCount: count, impurity: impurity))
                      for c in 0..<classes { nodeCounts.append(Int(totals[c])) }
                      growth?.append(
                        chosen: chosen, best: UnsafeBufferPointer(nodeBest), constant: UnsafeBufferPointer(nodeConstant)
                      )
                      let listStart = record.rowListFeature * n
                      growth?.appendRows(
                        isLeaf: isLeaf,
                        entries: featureCount == 0
                          ? nil : UnsafeBufferPointer(rebasing: sortedEntries[(listStart + start)..<(listStart + end)]),
                        positions: start..<end, rowMask: rowMask)
                      maxDepthSeen = max(maxDepthSeen, record.depth)
                      if isLeaf { continue }

                      // Apply the split to the lists of the features visited; the split feature's is
                      // already in order. A feature constant here is constant on any part of this
                      // range, so its list is never scanned below and may stay unpartitioned.
                      let splitEntries = sortedEntries.baseAddress! + bestFeature * n
                      for p in start..<bestPosition {
                        goesLeft[Int(truncatingIfNeeded: splitEntries[p] & rowMask)] = true
                      }
                      for p in bestPosition..<end {
                        goesLeft[Int(truncatingIfNeeded: splitEntries[p] & rowMask)] = false
                      }
                      // A node that stopped drawing at `max_features` left features unvisited that its children
                      // may draw: every list is partitioned then (one constant at an ancestor holds rows of
                      // other nodes here, but is never read again, so reordering it does no harm).
                      func partition(_ f: Int) {
                        Self.stablePartition(
                          sortedEntries.baseAddress! + f * n, sortedValues.baseAddress! + f * n, start, end,
                          goesLeft: UnsafePointer(goesLeft.baseAddress!), spareEntries: spareEntries.baseAddress!,
                          spareValues: spareValues.baseAddress!, rowMask: rowMask)
                      }
                      if drawsSome {
                        for f in 0..<featureCount where f != bestFeature { partition(f) }
                      } else {
                        for f in UnsafeBufferPointer(rebasing: visiting[0..<visitCount]) where f != bestFeature {
                          partition(f)
                        }
                      }

                      for c in 0..<classes { countStack.append(leftCounts[c]) }  // right child's counts
                      stack.append(
                        Pending(
                          start: bestPosition, end: end, depth: record.depth + 1, parent: id, isLeft: false,
                          impurity: impurityRight, constants: constants, rowListFeature: bestFeature))
                      for c in 0..<classes { countStack.append(bestLeftCounts[c]) }
                      stack.append(
                        Pending(
                          start: start, end: bestPosition, depth: record.depth + 1, parent: id, isLeft: true,
                          impurity: impurityLeft, constants: constants, rowListFeature: bestFeature))
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    // The fitted tree keeps these arrays: one that ended at half its reserve or less keeps an exact copy, so a
    // small tree (a depth limit, or few distinct rows) does not hold n nodes' room, resident where the heap reused it.
    return Result(
      nodes: Self.trimmed(nodes), classCounts: Self.trimmed(nodeCounts), depth: maxDepthSeen, growth: growth)
  }

  /// `array` itself, or an exact copy when it fills half its capacity or less.
  static func trimmed<Element>(_ array: [Element]) -> [Element] {
    guard array.count <= array.capacity / 2 else { return array }
    return array.withUnsafeBufferPointer { Array($0) }
  }

  /// The split of one feature's sorted rows `start..<end` that is strictly better than
  /// `bestProxy`, if any: its position (first row of the right child), with `bestProxy` and
  /// `bestLeftCounts` updated. The lowest such position wins a tie within the feature.
  /// `equalled` is set when none beats `bestProxy` but one equals it: a tie with an earlier feature.
  ///
  /// Counts are rebuilt only where a split can go (between distinct values); two classes keep
  /// theirs in a register meanwhile. Kept out of line, and compiled once per criterion with no
  /// call inside the Gini loop, so the scan keeps its running best in registers.
  @inline(never)
  func bestSplit<Entry: FixedWidthInteger & UnsignedInteger>(
    values: UnsafePointer<Float>, entries: UnsafePointer<Entry>, start: Int, end: Int,
    totals: UnsafeBufferPointer<Double>, leftCounts: UnsafeMutableBufferPointer<Double>,
    bestLeftCounts: UnsafeMutableBufferPointer<Double>, bestProxy: inout Double, equalled: inout Bool,
    labelShift: Int
  ) -> Int? {
    switch criterion {
    case .gini where totals.count == 2:
      scanTwoClassGini(
        values: values, entries: entries, start: start, end: end, totals: totals, bestLeftCounts: bestLeftCounts,
        bestProxy: &bestProxy, equalled: &equalled, labelShift: labelShift)
    case .gini:
      scan(
        values: values, entries: entries, start: start, end: end, totals: totals, leftCounts: leftCounts,
        bestLeftCounts: bestLeftCounts, bestProxy: &bestProxy, equalled: &equalled, entropy: false,
        labelShift: labelShift)
    case .entropy, .logLoss:
      scan(
        values: values, entries: entries, start: start, end: end, totals: totals, leftCounts: leftCounts,
        bestLeftCounts: bestLeftCounts, bestProxy: &bestProxy, equalled: &equalled, entropy: true,
        labelShift: labelShift)
    }
  }

  /// `bestSplit` for one criterion; `entropy` is a constant at each call, so each copy keeps one branch.
  @inline(__always)
  private func scan<Entry: FixedWidthInteger & UnsignedInteger>(
    values: UnsafePointer<Float>, entries: UnsafePointer<Entry>, start: Int, end: Int,
    totals: UnsafeBufferPointer<Double>, leftCounts: UnsafeMutableBufferPointer<Double>,
    bestLeftCounts: UnsafeMutableBufferPointer<Double>, bestProxy: inout Double, equalled: inout Bool, entropy: Bool,
    labelShift: Int
  ) -> Int? {
    let classes = totals.count
    let tolerance = Self.featureTolerance
    var best = bestProxy
    var found: Int? = nil
    var tie = false
    var ones = 0
    for c in 0..<classes { leftCounts[c] = 0 }
    for p in start..<(end - 1) {
      let label = Int(truncatingIfNeeded: entries[p] >> labelShift)
      if classes == 2 { ones += label } else { leftCounts[label] += 1 }
      if values[p + 1] <= values[p] + tolerance { continue }
      let leftRows = p + 1 - start
      let rightRows = end - p - 1
      if leftRows < minSamplesLeaf { continue }
      if rightRows < minSamplesLeaf { break }
      if classes == 2 {
        leftCounts[0] = Double(leftRows - ones)
        leftCounts[1] = Double(ones)
      }
      let proxy = Self.proxyImprovement(
        UnsafeBufferPointer(leftCounts), totals, Double(leftRows), Double(rightRows), entropy: entropy)
      if proxy >= best {
        if proxy > best {
          best = proxy
          found = p + 1
          for c in 0..<classes { bestLeftCounts[c] = leftCounts[c] }
        } else if found == nil {
          tie = true
        }
      }
    }
    bestProxy = best
    if tie && found == nil { equalled = true }
    return found
  }

  /// `scan` with rows weighted (a forest's bootstrap counts): class counts and the two sides' sizes in the proxy
  /// are weights, as scikit-learn's criterion sums `sample_weight`; `min_samples_leaf` still counts rows.
  @inline(never)
  func scanWeighted<Entry: FixedWidthInteger & UnsignedInteger>(
    values: UnsafePointer<Float>, entries: UnsafePointer<Entry>, start: Int, end: Int,
    totals: UnsafeBufferPointer<Double>, nodeWeight: Double, leftCounts: UnsafeMutableBufferPointer<Double>,
    bestLeftCounts: UnsafeMutableBufferPointer<Double>, bestProxy: inout Double, equalled: inout Bool,
    labelShift: Int, weights: [Double]
  ) -> Int? {
    let classes = totals.count
    let tolerance = Self.featureTolerance
    let rowMask: Entry = (1 << labelShift) - 1
    let entropy = criterion != .gini
    var best = bestProxy
    var found: Int? = nil
    var tie = false
    var leftWeight = 0.0
    for c in 0..<classes { leftCounts[c] = 0 }
    weights.withUnsafeBufferPointer { weights in
      for p in start..<(end - 1) {
        let entry = entries[p]
        let weight = weights[Int(truncatingIfNeeded: entry & rowMask)]
        leftCounts[Int(truncatingIfNeeded: entry >> labelShift)] += weight
        leftWeight += weight
        if values[p + 1] <= values[p] + tolerance { continue }
        if p + 1 - start < minSamplesLeaf { continue }
        if end - p - 1 < minSamplesLeaf { break }
        let proxy = Self.proxyImprovement(
          UnsafeBufferPointer(leftCounts), totals, leftWeight, nodeWeight - leftWeight, entropy: entropy)
        if proxy >= best {
          if proxy > best {
            best = proxy
            found = p + 1
            for c in 0..<classes { bestLeftCounts[c] = leftCounts[c] }
          } else if found == nil {
            tie = true
          }
        }
      }
    }
    bestProxy = best
    if tie && found == nil { equalled = true }
    return found
  }

  /// `scan` for Gini with two classes, the common case, with the counts in registers: the same operations in
  /// the same order (`proxyImprovement`'s sums start from zero, and 0 + x is x), so the same split wins.
  ///
  /// Most positions are no candidate: a feature with few distinct values has long runs of equal ones. With
  /// 4-byte entries, eight positions are tested at once: a block with no split in it only adds its labels, and
  /// a block with some visits just those. Either way every candidate is evaluated in order.
  @inline(__always)
  private func scanTwoClassGini<Entry: FixedWidthInteger & UnsignedInteger>(
    values: UnsafePointer<Float>, entries: UnsafePointer<Entry>, start: Int, end: Int,
    totals: UnsafeBufferPointer<Double>, bestLeftCounts: UnsafeMutableBufferPointer<Double>, bestProxy: inout Double,
    equalled: inout Bool, labelShift: Int
  ) -> Int? {
    let tolerance = Self.featureTolerance
    let (total0, total1) = (totals[0], totals[1])
    var best = bestProxy
    var found: Int? = nil
    var tie = false
    var ones = 0
    let last = end - 1
    let blocks = Entry.bitWidth == 32
    var p = start
    let minSamplesLeaf = self.minSamplesLeaf
    // The candidate split after `position`, whose left side holds `ones` rows of class 1; false once the right
    // side is too small, as it stays for every later position.
    @inline(__always) func evaluate(_ position: Int, ones: Int) -> Bool {
      let leftRows = position &+ 1 &- start
      let rightRows = end &- position &- 1
      if leftRows < minSamplesLeaf { return true }
      if rightRows < minSamplesLeaf { return false }
      let left0 = Double(leftRows &- ones)
      let left1 = Double(ones)
      let right0 = total0 - left0
      let right1 = total1 - left1
      let leftCount = Double(leftRows)
      let rightCount = Double(rightRows)
      let giniLeft = 1.0 - (left0 * left0 + left1 * left1) / (leftCount * leftCount)
      let giniRight = 1.0 - (right0 * right0 + right1 * right1) / (rightCount * rightCount)
      let proxy = -rightCount * giniRight - leftCount * giniLeft
      if proxy >= best {
        if proxy > best {
          best = proxy
          found = position + 1
          bestLeftCounts[0] = left0
          bestLeftCounts[1] = left1
        } else if found == nil {
          tie = true
        }
      }
      return true
    }
    // Lane i of a block weighs 2^i, so a mask's weighted sum is its lanes as bits.
    let laneBits = SIMD8<UInt32>(1, 2, 4, 8, 16, 32, 64, 128)
    scan: while p < last {
      if blocks && p + Self.scanBlock <= last {
        let here = UnsafeRawPointer(values + p).loadUnaligned(as: SIMD8<Float>.self)
        let next = UnsafeRawPointer(values + p + 1).loadUnaligned(as: SIMD8<Float>.self)
        let labels = UnsafeRawPointer(entries + p).loadUnaligned(as: SIMD8<UInt32>.self) &>> UInt32(labelShift)
        let splits = next .> here + tolerance
        if any(splits) {
          // Only the block's candidates are visited, in order, each with the class-1 rows up to it counted from
          // the labels' bits: no branch per position on whether a value changes there, which in a deep node's
          // short runs of equal values the processor could not predict.
          let splitBits = (SIMD8<UInt32>(repeating: 0).replacing(with: laneBits, where: splits)).wrappedSum()
          let labelBits = (labels &* laneBits).wrappedSum()
          var remaining = splitBits
          while remaining != 0 {
            let lane = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            let upTo = ones &+ (labelBits & (UInt32(2) &<< UInt32(lane) &- 1)).nonzeroBitCount
            if !evaluate(p &+ lane, ones: upTo) { break scan }
          }
        }
        ones &+= Int(labels.wrappedSum())
        p &+= Self.scanBlock
        continue
      }
      // Wrapping arithmetic and a masking shift: positions stay within `start..<end` and the shift below the
      // entry's width, and the checks the plain operators add are most of this loop's instructions.
      let position = p
      p &+= 1
      ones &+= Int(truncatingIfNeeded: entries[position] &>> labelShift)
      if values[position &+ 1] <= values[position] + tolerance { continue }
      if !evaluate(position, ones: ones) { break scan }
    }
    bestProxy = best
    if tie && found == nil { equalled = true }
    return found
  }

  /// Positions the two-class scan tests at once (`SIMD8`).
  static let scanBlock = 8

  /// Float bits mapped so unsigned integer order is numeric order (−0 just before +0).
  @inline(__always)
  static func orderedBits(_ value: Float) -> UInt32 {
    let bits = value.bitPattern
    return bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
  }

  /// Stable LSD radix sort on the high 32 bits, a byte per pass; keys already in
  /// order of their low half (the row) end up sorted as whole `UInt64`s.
  ///
  /// A pass whose byte is the same for every key is skipped, which is common for
  /// small integer-valued features.
  static func sortByHighHalf(_ keys: inout [UInt64], spare: inout [UInt64]) {
    let n = keys.count
    var counts = [Int](repeating: 0, count: 256)
    for shift in stride(from: 32, to: 64, by: 8) {
      for b in 0..<256 { counts[b] = 0 }
      for key in keys { counts[Int(truncatingIfNeeded: (key >> UInt64(shift)) & 0xff)] += 1 }
      if counts.contains(n) { continue }
      var total = 0
      for b in 0..<256 {
        let count = counts[b]
        counts[b] = total
        total += count
      }
      keys.withUnsafeBufferPointer { source in
        spare.withUnsafeMutableBufferPointer { target in
          counts.withUnsafeMutableBufferPointer { next in
            for key in source {
              let digit = Int(truncatingIfNeeded: (key >> UInt64(shift)) & 0xff)
              target[next[digit]] = key
              next[digit] += 1
            }
          }
        }
      }
      swap(&keys, &spare)
    }
  }

  /// The inverse of `orderedBits`.
  @inline(__always)
  static func float(orderedBits bits: UInt32) -> Float {
    Float(bitPattern: bits & 0x8000_0000 != 0 ? bits & 0x7fff_ffff : ~bits)
  }

  /// Moves the rows going left to the front of `start..<end`, keeping order on both sides.
  ///
  /// Branch-free: each entry is written to both sides and only one side advances.
  /// Kept out of line so the hot loop gets registers to itself.
  @inline(never)
  static func stablePartition<Entry: FixedWidthInteger & UnsignedInteger>(
    _ entries: UnsafeMutablePointer<Entry>, _ values: UnsafeMutablePointer<Float>, _ start: Int, _ end: Int,
    goesLeft: UnsafePointer<Bool>, spareEntries: UnsafeMutablePointer<Entry>, spareValues: UnsafeMutablePointer<Float>,
    rowMask: Entry
  ) {
    var kept = start
    var moved = 0
    for p in start..<end {
      let entry = entries[p]
      let value = values[p]
      entries[kept] = entry
      values[kept] = value
      spareEntries[moved] = entry
      spareValues[moved] = value
      let left = goesLeft[Int(truncatingIfNeeded: entry & rowMask)] ? 1 : 0
      kept &+= left
      moved &+= 1 &- left
    }
    (entries + kept).update(from: spareEntries, count: moved)
    (values + kept).update(from: spareValues, count: moved)
  }

  /// Node impurity from class counts: scikit-learn's `node_impurity` / `children_impurity`.
  @inline(__always)
  func impurityOf(_ counts: UnsafeBufferPointer<Double>, _ rows: Double) -> Double {
    switch criterion {
    case .gini:
      var squares = 0.0
      for count in counts { squares += count * count }
      return 1.0 - squares / (rows * rows)
    case .entropy, .logLoss:
      var entropy = 0.0
      for count in counts where count > 0 {
        let share = count / rows
        entropy -= share * Foundation.log(share)
      }
      return entropy
    }
  }

  /// scikit-learn's `proxy_impurity_improvement`: `−n_R·impurity_R − n_L·impurity_L`.
  ///
  /// Larger is better; the same operations in the same order as scikit-learn,
  /// so candidates compare identically even when nearly tied.
  @inline(__always)
  static func proxyImprovement(
    _ leftCounts: UnsafeBufferPointer<Double>, _ totals: UnsafeBufferPointer<Double>, _ leftRows: Double,
    _ rightRows: Double, entropy: Bool
  ) -> Double {
    if !entropy {
      var squaresLeft = 0.0
      var squaresRight = 0.0
      for c in 0..<leftCounts.count {
        let left = leftCounts[c]
        squaresLeft += left * left
        let right = totals[c] - left
        squaresRight += right * right
      }
      let giniLeft = 1.0 - squaresLeft / (leftRows * leftRows)
      let giniRight = 1.0 - squaresRight / (rightRows * rightRows)
      return -rightRows * giniRight - leftRows * giniLeft
    } else {
      var entropyLeft = 0.0
      var entropyRight = 0.0
      for c in 0..<leftCounts.count {
        let left = leftCounts[c]
        if left > 0 {
          let share = left / leftRows
          entropyLeft -= share * Foundation.log(share)
        }
        let right = totals[c] - left
        if right > 0 {
          let share = right / rightRows
          entropyRight -= share * Foundation.log(share)
        }
      }
      return -rightRows * entropyRight - leftRows * entropyLeft
    }
  }
}
