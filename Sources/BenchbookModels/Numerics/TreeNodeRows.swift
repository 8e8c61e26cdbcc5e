import BenchbookData

/// A grown tree's training rows grouped by the leaf they reach, so that any node's rows are one slice:
/// nodes are numbered depth first, so a node's subtree is the nodes from it up to `subtreeEnd`, and its
/// rows are those of the leaves in that range. Regrowing a subtree (`FittedDecisionTree.grown`) starts
/// from them.
struct TreeNodeRows {
  /// Row indices ordered by leaf.
  private let rows: [Int]
  /// Per node, where its rows would start in `rows`: the rows of every leaf numbered before it; one more
  /// entry for the end.
  private let first: [Int]
  /// Per node, one past the last node of its subtree.
  private let subtreeEnd: [Int]

  /// - Parameter x: the rows `tree` was grown on.
  init(_ tree: FittedDecisionTree, x: Matrix) {
    let nodes = tree.nodes
    let leaves = tree.leaves(x)
    var first = [Int](repeating: 0, count: nodes.count + 1)
    for leaf in leaves { first[leaf + 1] += 1 }
    for n in nodes.indices { first[n + 1] += first[n] }
    var next = first
    var rows = [Int](repeating: 0, count: leaves.count)
    for (row, leaf) in leaves.enumerated() {
      rows[next[leaf]] = row
      next[leaf] += 1
    }
    var subtreeEnd = [Int](repeating: 0, count: nodes.count)
    for n in nodes.indices.reversed() { subtreeEnd[n] = nodes[n].isLeaf ? n + 1 : subtreeEnd[nodes[n].right] }
    self.rows = rows
    self.first = first
    self.subtreeEnd = subtreeEnd
  }

  /// The training rows that reach `node`, in ascending order.
  func rows(of node: Int) -> [Int] {
    rows[first[node]..<first[subtreeEnd[node]]].sorted()
  }
}
