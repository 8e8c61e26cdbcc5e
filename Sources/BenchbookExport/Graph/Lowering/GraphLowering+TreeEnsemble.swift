import BenchbookModels

extension GraphLowering {
  /// A tree ensemble (a forest, boosting) on the unstandardised design matrix, its thresholds restated on the raw
  /// float32 input as a single tree's are (`RawSplit`): ONNX-ML's `TreeEnsemble` where the dialect has it, else
  /// every tree walked at once with builtin operators. The trees' sums, plus the form's base scores, go through
  /// its transform (none, a sigmoid written as a softmax of [0, s], or a softmax).
  mutating func treeEnsemble(_ form: TreeEnsembleForm, x: Int) throws(ExportError) -> Int {
    var thresholds: [[Float]] = []
    for (t, tree) in form.trees.enumerated() {
      var restated = [Float](repeating: 0, count: tree.nodes.count)
      for (i, node) in tree.nodes.enumerated() where !node.isLeaf {
        guard node.feature >= 0 && node.feature < columns, !node.threshold.isNaN else {
          throw ExportError("tree \(t) node \(i) tests column \(node.feature) of \(columns)")
        }
        restated[i] = RawSplit.threshold(
          node.threshold, column: node.feature, scalers: scalers, float32: form.comparesFloat32)
      }
      thresholds.append(restated)
    }
    guard form.trees.allSatisfy({ $0.values.allSatisfy(\.isFinite) }), form.baseScores.allSatisfy(\.isFinite) else {
      throw ExportError("the \(algorithm) has non-finite leaves")
    }
    // Two classes without a transform need the second class's sum alone; the first is one minus it.
    let scores = form.transform == .none && form.classCount == 2 ? [1] : Array(0..<form.scoreCount)
    do {
      let sums =
        dialect.treeLayout == .ensemble
        ? try ensembleOperator(form, thresholds: thresholds, scores: scores, x: x)
        : try ensembleTraversal(form, thresholds: thresholds, scores: scores, x: x)
      return try ensembleTransform(form, sums: sums, scores: scores)
    } catch {
      throw ExportError("could not build the \(algorithm)'s graph: \(error.message)")
    }
  }

  /// ONNX-ML's `TreeEnsemble`: a leaf adds one weight to one target, so a tree whose leaves add to several scores
  /// (a forest's class shares) is written once per score it adds to.
  private mutating func ensembleOperator(
    _ form: TreeEnsembleForm, thresholds: [[Float]], scores: [Int], x: Int
  ) throws(GraphError) -> Int {
    var spec = TreeEnsembleSpec(targetCount: scores.count, roots: [], branches: [], leaves: [])
    for (t, tree) in form.trees.enumerated() {
      for (j, score) in (tree.firstScore..<(tree.firstScore + tree.valueCount)).enumerated() {
        guard let target = scores.firstIndex(of: score) else { continue }
        spec.append(tree: tree.nodes, thresholds: thresholds[t], target: target) {
          Float(tree.values[$0 * tree.valueCount + j])
        }
      }
    }
    return try graph.apply(.treeEnsemble(spec), x, name: "tree_sums")
  }

  /// Every tree walked at once, one step per level of the deepest: a row holds its current node in each tree
  /// ([batch, trees], indices into all trees' nodes laid end to end), gathers those nodes' columns and thresholds
  /// and moves each to a child. A leaf's threshold is NaN, which no value is at or below, and its right child is
  /// itself, so a tree whose leaf is reached early stays there; a missing value takes the side the fit learnt
  /// (a leaf's is right, itself). The leaves' values, laid out per score, are gathered and summed over the trees.
  private mutating func ensembleTraversal(
    _ form: TreeEnsembleForm, thresholds: [[Float]], scores: [Int], x: Int
  ) throws(GraphError) -> Int {
    var column: [Int32] = []
    var threshold: [Float] = []
    var left: [Int32] = []
    var right: [Int32] = []
    var missingLeft: [Float] = []
    var values: [Float] = []
    var roots: [Int32] = []
    var depthFirst = true
    for (t, tree) in form.trees.enumerated() {
      let offset = column.count
      roots.append(Int32(offset))
      for (i, node) in tree.nodes.enumerated() {
        let here = Int32(offset + i)
        column.append(Int32(max(node.feature, 0)))
        threshold.append(node.isLeaf ? .nan : thresholds[t][i])
        left.append(node.isLeaf ? here : Int32(offset + node.left))
        right.append(node.isLeaf ? here : Int32(offset + node.right))
        missingLeft.append(!node.isLeaf && node.missingGoesLeft ? 1 : 0)
        if !node.isLeaf && node.left != i + 1 { depthFirst = false }
        var row = [Float](repeating: 0, count: scores.count)
        if node.isLeaf {
          for j in 0..<tree.valueCount {
            if let s = scores.firstIndex(of: tree.firstScore + j) {
              row[s] = Float(tree.values[i * tree.valueCount + j])
            }
          }
        }
        values += row
      }
    }
    let trees = form.trees.count
    let columnTable = graph.constant("node_column", .int32(column))
    let thresholdTable = graph.constant("node_threshold", floats: threshold)
    let rightTable = graph.constant("node_right", .int32(right))
    let leftStep = depthFirst ? graph.constant("next_node", .int32([1])) : graph.constant("node_left", .int32(left))
    let missingTable = graph.constant("node_missing_left", floats: missingLeft)
    let half = graph.scalar("half", 0.5)
    // The first step compares against the roots' constants and makes the [batch, trees] node tensor.
    let rootValue = try graph.apply(
      .gather(axis: 1, batchDimensions: 0), x, graph.constant("root_column", .int32(roots.map { column[Int($0)] })),
      name: "root_value")
    let rootThreshold = graph.constant(
      "root_threshold", floats: roots.map { threshold[Int($0)].isNaN ? .infinity : threshold[Int($0)] })
    let rootCompared = try graph.apply(.lessEqual, rootValue, rootThreshold, name: "root_at_most")
    let rootIsNumber = try graph.apply(.equal, rootValue, rootValue, name: "root_is_number")
    let rootMissingLeft = try graph.apply(
      .greater, graph.constant("root_missing_left", floats: roots.map { missingLeft[Int($0)] }), half,
      name: "root_missing_goes_left")
    let rootLeft = try graph.apply(.select, rootIsNumber, rootCompared, rootMissingLeft, name: "root_goes_left")
    var node = try graph.apply(
      .select, rootLeft, graph.constant("root_left", .int32(roots.map { left[Int($0)] })),
      graph.constant("root_right", .int32(roots.map { right[Int($0)] })), name: "node_1")
    let depth = form.depth
    if depth > 1 {
      for level in 2...depth {
        let columns = try graph.apply(.gather(axis: 0, batchDimensions: 0), columnTable, node, name: "column_\(level)")
        let value = try graph.apply(.gather(axis: 1, batchDimensions: 1), x, columns, name: "value_\(level)")
        let split = try graph.apply(
          .gather(axis: 0, batchDimensions: 0), thresholdTable, node, name: "threshold_\(level)")
        let atMost = try graph.apply(.lessEqual, value, split, name: "at_most_\(level)")
        let isNumber = try graph.apply(.equal, value, value, name: "is_number_\(level)")
        let missing = try graph.apply(
          .gather(axis: 0, batchDimensions: 0), missingTable, node, name: "missing_side_\(level)")
        let missingGoesLeft = try graph.apply(.greater, missing, half, name: "missing_goes_left_\(level)")
        let goesLeft = try graph.apply(.select, isNumber, atMost, missingGoesLeft, name: "goes_left_\(level)")
        let leftChild =
          depthFirst
          ? try graph.apply(.add, node, leftStep, name: "left_\(level)")
          : try graph.apply(.gather(axis: 0, batchDimensions: 0), leftStep, node, name: "left_\(level)")
        let rightChild = try graph.apply(.gather(axis: 0, batchDimensions: 0), rightTable, node, name: "right_\(level)")
        node = try graph.apply(.select, goesLeft, leftChild, rightChild, name: "node_\(level)")
      }
    }
    let valueTable = graph.constant("node_values", floats: values, shape: [column.count, scores.count])
    let picked = try graph.apply(.gather(axis: 0, batchDimensions: 0), valueTable, node, name: "leaf_values")
    let shaped = try graph.apply(.reshape(shape: [-1, trees, scores.count]), picked, name: "leaf_values_by_tree")
    return try graph.apply(.sum(axes: [1], keepDimensions: false), shaped, name: "tree_sums")
  }

  /// The sums of `scores` (plus the base scores) as probabilities.
  private mutating func ensembleTransform(_ form: TreeEnsembleForm, sums: Int, scores: [Int]) throws(GraphError)
    -> Int
  {
    let base = scores.map { Float(form.baseScores[$0]) }
    switch form.transform {
    case .none where form.classCount == 2:
      var second = sums
      if base[0] != 0 {
        second = try graph.apply(.add, sums, graph.constant("base_scores", floats: base), name: "scores")
      }
      let first = try graph.apply(.subtract, graph.scalar("one", 1), second, name: "first_class")
      return try graph.apply(.concatenate(axis: 1), [first, second], name: "ensemble_probabilities")
    case .none:
      guard base.contains(where: { $0 != 0 }) else { return sums }
      return try graph.apply(.add, sums, graph.constant("base_scores", floats: base), name: "ensemble_probabilities")
    case .logistic:
      // σ(s) = softmax(0, s)₂: a product with the rows 0 and 1 makes [0, s + base].
      let pair = try graph.apply(
        .fullyConnected, sums, graph.constant("logit_rows", floats: [0, 1], shape: [2, 1]),
        graph.constant("logit_base", floats: [0, base[0]]), name: "logits")
      return try graph.apply(.softmax, pair, name: "ensemble_probabilities")
    case .softmax:
      let logits =
        base.contains(where: { $0 != 0 })
        ? try graph.apply(.add, sums, graph.constant("base_scores", floats: base), name: "logits") : sums
      return try graph.apply(.softmax, logits, name: "ensemble_probabilities")
    }
  }
}
