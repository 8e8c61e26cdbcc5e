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

  /// Sets bit `feature` of a node's words.
  @inline(__always)
  static func set(_ words: UnsafeMutableBufferPointer<UInt64>, _ feature: Int) {
    words[feature >> 6] |= 1 << UInt64(feature & 63)
  }

  @inline(__always)
  private static func isSet(_ words: [UInt64], _ offset: Int, _ feature: Int) -> Bool {
    words[offset + (feature >> 6)] & (1 << UInt64(feature & 63)) != 0
  }

  /// Whether growing with `limit` (shallower than this growth's) draws, at every node it searches, an
  /// order that picks the split this growth picked there: then that tree is this one cut at `limit`.
  func replays(
    to limit: Int, nodes: [FittedDecisionTree.Node], featureCount: Int, randomState: Int
  ) -> Bool {
    var order = FeatureVisitOrder(featureCount: featureCount, randomState: randomState)
    var visiting = [Int](repeating: 0, count: featureCount)
    // Nodes in growth order: depth first, left child first; with the constants their parent knew.
    var stack: [(node: Int, depth: Int, knownConstants: Int)] = [(0, 0, 0)]
    while let (node, depth, knownConstants) = stack.popLast() {
      let feature = chosen[node]
      // A leaf before its search in both growths (rows alone decide it), or cut by the limit.
      if feature == Self.notSearched || depth >= limit { continue }
      let offset = node * words
      let (count, constants) = visiting.withUnsafeMutableBufferPointer { visiting in
        order.visit(
          knownConstants: knownConstants, isConstant: { Self.isSet(constant, offset, $0) },
          order: visiting.baseAddress!)
      }
      if feature == Self.noSplit { continue }
      guard let winner = visiting[0..<count].first(where: { Self.isSet(best, offset, $0) }), winner == Int(feature)
      else { return false }
      // A split too weak to keep (`min_impurity_decrease`) left a leaf in both growths.
      if nodes[node].isLeaf { continue }
      stack.append((nodes[node].right, depth + 1, constants))
      stack.append((nodes[node].left, depth + 1, constants))
    }
    return true
  }
}
