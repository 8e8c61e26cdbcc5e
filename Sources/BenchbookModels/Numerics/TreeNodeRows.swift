/// A grown tree's training rows grouped by the leaf they reach, so that any node's rows are one slice:
/// nodes are numbered depth first, so a node's subtree is the nodes from it up to `subtreeEnd`, and its
/// rows are those of the leaves in that range. Regrowing a subtree (`FittedDecisionTree.grown`) starts
/// from them; the growth recorded them (`TreeGrowth.leafRows`).
struct TreeNodeRows {
  /// Row indices ordered by leaf (`TreeGrowth.leafRows`).
  private let rows: [UInt32]
  /// Per node, where its rows would start in `rows`: the rows of every leaf numbered before it; one more
  /// entry for the end.
  private let first: [Int]
  /// Per node, one past the last node of its subtree.
  private let subtreeEnd: [Int]

  /// - Parameter growth: the record of `tree`'s growth, its leaves' rows included.
  init(_ tree: FittedDecisionTree, growth: TreeGrowth) {
    let nodes = tree.nodes
    precondition(growth.rowsBefore.count == nodes.count, "the growth of this tree")
    var subtreeEnd = [Int](repeating: 0, count: nodes.count)
    for n in nodes.indices.reversed() { subtreeEnd[n] = nodes[n].isLeaf ? n + 1 : subtreeEnd[nodes[n].right] }
    rows = growth.leafRows
    first = growth.rowsBefore.map(Int.init) + [growth.leafRows.count]
    self.subtreeEnd = subtreeEnd
  }

  /// The training rows that reach `node`, in ascending order.
  func rows(of node: Int) -> [Int] {
    rows[first[node]..<first[subtreeEnd[node]]].map(Int.init).sorted()
  }
}
