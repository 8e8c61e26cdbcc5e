/// What a seeded tree's growth saw at each node, enough to replay the seeded feature order under a
/// shallower depth limit without searching a split again.
///
/// With a seed, every node that searches for a split draws its feature order from one generator
/// shared by the whole fit (`FeatureVisitOrder`), so a node that a shallower limit makes a leaf draws
/// nothing and every node after it sees another order. The order decides a split only among features
/// that split equally well, and which features those are, like which are constant, depends on the
/// node's rows alone. Replaying the draws over the recorded nodes therefore tells, exactly, whether
/// the deep tree cut at a limit is the tree that limit grows.
struct TreeGrowth: Sendable {
  /// Per node in the tree's numbering: the feature the search chose, `noSplit` when it searched and
  /// found none, `notSearched` when the node was a leaf before searching.
  var chosen: [Int32] = []
  /// Per node, `words` words: the features whose best split was as good as the chosen one's (it included).
  var best: [UInt64] = []
  /// Per node, `words` words: the features found constant on the node's rows when the search asked.
  var constant: [UInt64] = []
  let words: Int
  /// The fit's rows (positions in the rows it was grown on), leaf after leaf in node order: the rows that reach
  /// a node are those of the leaves of its subtree, one slice (`TreeNodeRows`). Recorded as the leaves are made,
  /// so regrowing a subtree does not walk every training row down the tree to find them.
  var leafRows: [UInt32] = []
  /// Per node, how many rows the leaves numbered before it hold: where its rows start in `leafRows`.
  var rowsBefore: [UInt32] = []

  static let notSearched: Int32 = -2
  static let noSplit: Int32 = -1

  init(featureCount: Int) {
    words = (featureCount + 63) / 64
  }

  /// Appends a node; `best` and `constant` hold its `words` words each.
  mutating func append(chosen feature: Int32, best: UnsafeBufferPointer<UInt64>, constant: UnsafeBufferPointer<UInt64>)
  {
    chosen.append(feature)
    self.best.append(contentsOf: best)
    self.constant.append(contentsOf: constant)
  }

  /// Records where a node's rows start in `leafRows` and, for a leaf, its rows: the row field (`rowMask`) of
  /// `entries`, a list holding exactly the node's rows. With no feature there is no list, the root is the only
  /// node, and its `positions` in the lists (all of them) are its rows.
  mutating func appendRows<Entry: FixedWidthInteger & UnsignedInteger>(
    isLeaf: Bool, entries: UnsafeBufferPointer<Entry>?, positions: Range<Int>, rowMask: Entry
  ) {
    rowsBefore.append(UInt32(truncatingIfNeeded: leafRows.count))
    guard isLeaf else { return }
    guard let entries else {
      leafRows.append(contentsOf: positions.lazy.map { UInt32(truncatingIfNeeded: $0) })
      return
    }
    for entry in entries { leafRows.append(UInt32(truncatingIfNeeded: entry & rowMask)) }
  }

  /// Sets bit `feature` of a node's words.
  @inline(__always)
  static func set(_ words: UnsafeMutableBufferPointer<UInt64>, _ feature: Int) {
    words[feature >> 6] |= 1 << UInt64(feature & 63)
  }

  @inline(__always)
  private static func isSet(_ words: [UInt64], _ offset: Int, _ feature: Int) -> Bool {
    words[offset + (feature >> 6)] & (1 << UInt64(feature & 63)) != 0
  }

  /// The tree that growing with `limit` (shallower than this growth's) gives on the same rows, replayed
  /// over `tree`, the tree this growth grew: its draws are made at every node it searches, and where they
  /// pick the split this growth picked, the node is `tree`'s node; a node cut by the limit is a leaf. Where
  /// they pick another, `regrow` grows that node's subtree from its rows, given where it starts and the
  /// draws as they stand before its node; the replay goes on with the draws as the subtree left them.
  /// `nil` when `regrow` returns `nil`.
  func replay(
    to limit: Int, tree: FittedDecisionTree, randomState: Int,
    regrow: (_ node: Int, _ root: TreeBuilder.Root, _ order: inout FeatureVisitOrder) throws(ModelError) ->
      TreeBuilder.Result?
  ) throws(ModelError) -> TreeBuilder.Result? {
    let nodes = tree.nodes
    var order = FeatureVisitOrder(featureCount: tree.featureCount, randomState: randomState)
    var visiting = [Int](repeating: 0, count: tree.featureCount)
    var out: [FittedDecisionTree.Node] = []
    var counts: [Int] = []
    var deepest = 0
    // Nodes in growth order: depth first, left child first; with the constants their parent knew, and where
    // the replayed tree links them.
    var stack: [(node: Int, depth: Int, knownConstants: Int, parent: Int, isLeft: Bool)] = [(0, 0, 0, -1, false)]
    while let (node, depth, knownConstants, parent, isLeft) = stack.popLast() {
      let index = out.count
      if parent >= 0 {
        if isLeft { out[parent].left = index } else { out[parent].right = index }
      }
      func appendLeaf() {
        var leaf = nodes[node]
        (leaf.feature, leaf.threshold, leaf.left, leaf.right) = (-1, 0, -1, -1)
        out.append(leaf)
        counts.append(contentsOf: tree.classCounts(ofNode: node))
        deepest = max(deepest, depth)
      }
      let feature = chosen[node]
      // A leaf before its search in both growths (rows alone decide it), or cut by the limit.
      if feature == Self.notSearched || depth >= limit {
        appendLeaf()
        continue
      }
      let before = order
      let offset = node * words
      let (count, constants) = visiting.withUnsafeMutableBufferPointer { visiting in
        order.visit(
          knownConstants: knownConstants, isConstant: { Self.isSet(constant, offset, $0) },
          order: visiting.baseAddress!)
      }
      if feature == Self.noSplit {
        appendLeaf()
        continue
      }
      guard let winner = visiting[0..<count].first(where: { Self.isSet(best, offset, $0) }), winner == Int(feature)
      else {
        order = before
        let root = TreeBuilder.Root(depth: depth, knownConstants: knownConstants, totalRows: nodes[0].sampleCount)
        guard let subtree = try regrow(node, root, &order) else { return nil }
        out.append(
          contentsOf: subtree.nodes.map {
            var copy = $0
            if !copy.isLeaf { (copy.left, copy.right) = (copy.left + index, copy.right + index) }
            return copy
          })
        counts.append(contentsOf: subtree.classCounts)
        deepest = max(deepest, subtree.depth)
        continue
      }
      // A split too weak to keep (`min_impurity_decrease`) left a leaf in both growths.
      if nodes[node].isLeaf {
        appendLeaf()
        continue
      }
      out.append(nodes[node])
      counts.append(contentsOf: tree.classCounts(ofNode: node))
      deepest = max(deepest, depth)
      stack.append((nodes[node].right, depth + 1, constants, index, false))
      stack.append((nodes[node].left, depth + 1, constants, index, true))
    }
    return TreeBuilder.Result(nodes: out, classCounts: counts, depth: deepest, growth: nil)
  }
}
