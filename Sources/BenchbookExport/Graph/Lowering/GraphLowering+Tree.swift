import BenchbookModels

extension GraphLowering {
  /// A decision tree on the unstandardised design matrix: each split's threshold is restated on the raw
  /// float32 input (`RawSplit`), so the graph compares exactly as the fitted tree does.
  mutating func tree(_ form: TreeForm, x: Int) throws(ExportError) -> Int {
    var thresholds = [Float](repeating: 0, count: form.nodes.count)
    for (i, node) in form.nodes.enumerated() where !node.isLeaf {
      guard node.feature >= 0 && node.feature < columns, node.threshold.isFinite else {
        throw ExportError("decision tree node \(i) tests column \(node.feature) of \(columns)")
      }
      thresholds[i] = RawSplit.threshold(node.threshold, column: node.feature, scalers: scalers)
    }
    guard form.shares.allSatisfy(\.isFinite) else { throw ExportError("the \(algorithm) has non-finite leaves") }
    do {
      switch dialect.treeLayout {
      case .ensemble: return try treeEnsemble(form, thresholds: thresholds, x: x)
      case .matrix where form.nodes.count > 1: return try treeMatrix(form, thresholds: thresholds, x: x)
      case .matrix, .traversal: return try treeTraversal(form, thresholds: thresholds, x: x)
      }
    } catch {
      throw ExportError("could not build the \(algorithm)'s graph: \(error.message)")
    }
  }

  /// Bytes the matrix form's constants take: the leaf-by-split matrix dominates (4 · leaves · splits).
  static func matrixBytes(_ form: TreeForm) -> Int {
    let leaves = form.leafCount
    let splits = form.nodes.count - leaves
    return 4 * (leaves * splits + 2 * splits + leaves + form.classCount * leaves)
  }

  /// One step per level: every row holds its current node, and gathers that node's column and threshold and
  /// goes to a child. A leaf's threshold is NaN, which no value is at or below, and its right child is itself,
  /// so rows that reach a leaf early stay there. In depth-first numbering (every tree Benchbook grows, as
  /// scikit-learn numbers it) a left child is the next node, so only right children are stored. A two-class
  /// tree stores P(second class) per node. O(nodes) constants; a step per level.
  private mutating func treeTraversal(_ form: TreeForm, thresholds: [Float], x: Int) throws(GraphError) -> Int {
    let nodes = form.nodes
    let depthFirst = nodes.indices.allSatisfy { nodes[$0].isLeaf || nodes[$0].left == $0 + 1 }
    let feature = graph.constant("node_column", .int32(nodes.map { Int32(max($0.feature, 0)) }))
    let threshold = graph.constant(
      "node_threshold", floats: nodes.indices.map { nodes[$0].isLeaf ? .nan : thresholds[$0] })
    let right = graph.constant(
      "node_right", .int32(nodes.indices.map { Int32(nodes[$0].isLeaf ? $0 : nodes[$0].right) }))
    let left =
      depthFirst
      ? graph.constant("next_node", .int32([1]))
      : graph.constant("node_left", .int32(nodes.indices.map { Int32(nodes[$0].isLeaf ? $0 : nodes[$0].left) }))
    // The first step, from the root, compares against constants: it makes the [batch, 1] node tensor.
    let root = nodes[0]
    let rootValue = try graph.apply(
      .gather(axis: 1, batchDimensions: 0), x, graph.constant("root_column", .int32([Int32(max(root.feature, 0))])),
      name: "root_value")
    let rootLeft = try graph.apply(
      .lessEqual, rootValue, graph.constant("root_threshold", floats: [root.isLeaf ? .infinity : thresholds[0]]),
      name: "root_goes_left")
    var node = try graph.apply(
      .select, rootLeft, graph.constant("root_left", .int32([Int32(root.isLeaf ? 0 : root.left)])),
      graph.constant("root_right", .int32([Int32(root.isLeaf ? 0 : root.right)])), name: "node_1")
    let depth = form.depth
    if depth > 1 {
      for level in 2...depth {
        let column = try graph.apply(.gather(axis: 0, batchDimensions: 0), feature, node, name: "column_\(level)")
        let value = try graph.apply(.gather(axis: 1, batchDimensions: 1), x, column, name: "value_\(level)")
        let split = try graph.apply(.gather(axis: 0, batchDimensions: 0), threshold, node, name: "threshold_\(level)")
        let goesLeft = try graph.apply(.lessEqual, value, split, name: "goes_left_\(level)")
        let leftChild =
          depthFirst
          ? try graph.apply(.add, node, left, name: "left_\(level)")
          : try graph.apply(.gather(axis: 0, batchDimensions: 0), left, node, name: "left_\(level)")
        let rightChild = try graph.apply(.gather(axis: 0, batchDimensions: 0), right, node, name: "right_\(level)")
        node = try graph.apply(.select, goesLeft, leftChild, rightChild, name: "node_\(level)")
      }
    }
    if form.classCount == 2 {
      let second = graph.constant("node_second_class", floats: nodes.indices.map { Float(form.shares[2 * $0 + 1]) })
      let picked = try graph.apply(.gather(axis: 0, batchDimensions: 0), second, node, name: "second_class")
      let first = try graph.apply(.subtract, graph.scalar("one", 1), picked, name: "first_class")
      return try graph.apply(.concatenate(axis: 1), [first, picked], name: "tree_probabilities")
    }
    let shares = graph.constant(
      "node_shares", floats: form.shares.map { Float($0) }, shape: [nodes.count, form.classCount])
    let picked = try graph.apply(.gather(axis: 0, batchDimensions: 0), shares, node, name: "leaf_shares")
    return try graph.apply(.reshape(shape: [-1, form.classCount]), picked, name: "tree_probabilities")
  }

  /// Every split at once: c = [x_column ≤ threshold] per split; a leaf is reached when A·c equals its
  /// number of left turns (A holds +1 where the leaf lies left of a split, −1 right, 0 elsewhere; the sum
  /// can only reach that count when every split on its path agrees); the reached leaf's shares, by a
  /// second product. Small and fast for shallow trees; leaves × splits constants.
  private mutating func treeMatrix(_ form: TreeForm, thresholds: [Float], x: Int) throws(GraphError) -> Int {
    let nodes = form.nodes
    let splits = nodes.indices.filter { !nodes[$0].isLeaf }
    let leaves = nodes.indices.filter { nodes[$0].isLeaf }
    var splitIndex = [Int](repeating: -1, count: nodes.count)
    for (i, node) in splits.enumerated() { splitIndex[node] = i }
    var leafIndex = [Int](repeating: -1, count: nodes.count)
    for (i, node) in leaves.enumerated() { leafIndex[node] = i }
    var paths = [Float](repeating: 0, count: leaves.count * splits.count)
    var leftTurns = [Float](repeating: 0, count: leaves.count)
    // Walk down keeping each node's path: (split, direction) pairs.
    var stack: [(node: Int, path: [(Int, Float)])] = [(0, [])]
    while let (node, path) = stack.popLast() {
      if nodes[node].isLeaf {
        let l = leafIndex[node]
        for (split, sign) in path {
          paths[l * splits.count + split] = sign
          if sign > 0 { leftTurns[l] += 1 }
        }
      } else {
        stack.append((nodes[node].right, path + [(splitIndex[node], -1)]))
        stack.append((nodes[node].left, path + [(splitIndex[node], 1)]))
      }
    }
    let values = try graph.apply(
      .gather(axis: 1, batchDimensions: 0), x,
      graph.constant("split_column", .int32(splits.map { Int32(nodes[$0].feature) })), name: "split_values")
    let decisions = try graph.apply(
      .lessEqual, values, graph.constant("split_threshold", floats: splits.map { thresholds[$0] }),
      name: "goes_left")
    let asNumbers = try graph.apply(.cast(.float32), decisions, name: "goes_left_number")
    let agreement = try graph.apply(
      .fullyConnected, asNumbers, graph.constant("leaf_paths", floats: paths, shape: [leaves.count, splits.count]),
      graph.constant("leaf_left_turns", floats: leftTurns.map { -$0 }), name: "path_agreement")
    let reached = try graph.apply(.equal, agreement, graph.scalar("zero", 0), name: "leaf_reached")
    let reachedNumbers = try graph.apply(.cast(.float32), reached, name: "leaf_reached_number")
    var shareRows = [Float](repeating: 0, count: form.classCount * leaves.count)
    for (l, node) in leaves.enumerated() {
      for (c, share) in form.shares(ofNode: node).enumerated() { shareRows[c * leaves.count + l] = Float(share) }
    }
    return try graph.apply(
      .fullyConnected, reachedNumbers,
      graph.constant("leaf_shares", floats: shareRows, shape: [form.classCount, leaves.count]),
      graph.constant("no_bias", floats: Array(repeating: 0, count: form.classCount)), name: "tree_probabilities")
  }

  /// ONNX-ML's `TreeEnsemble`: one tree per class, each leaf adding its class share (two classes: one tree
  /// for the second class, the first being one minus it).
  private mutating func treeEnsemble(_ form: TreeForm, thresholds: [Float], x: Int) throws(GraphError) -> Int {
    let nodes = form.nodes
    let binary = form.classCount == 2
    let targets = binary ? [1] : Array(0..<form.classCount)
    var spec = TreeEnsembleSpec(targetCount: targets.count, roots: [], branches: [], leaves: [])
    for (t, target) in targets.enumerated() {
      spec.append(tree: nodes, thresholds: thresholds, target: t) { Float(form.shares[$0 * form.classCount + target]) }
    }
    let sums = try graph.apply(.treeEnsemble(spec), x, name: binary ? "second_class" : "tree_probabilities")
    guard binary else { return sums }
    let first = try graph.apply(.subtract, graph.scalar("one", 1), sums, name: "first_class")
    return try graph.apply(.concatenate(axis: 1), [first, sums], name: "tree_probabilities")
  }
}
