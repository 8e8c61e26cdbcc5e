import Foundation

/// Core ML's tree ensemble classifier: each tree is walked from its root (the
/// node no other node points to), a branch sending the row to its true child
/// when `value <mode> branchFeatureValue` holds and a NaN where
/// `missingValueTracksTrueChild` says; the leaves' values are added per
/// dimension to the base prediction, then transformed:
/// - no transform: the sums are the probabilities (one dimension: P(class 1) of two);
/// - softmax: across dimensions; with zero-class reference, class 0 scores 0;
/// - logistic (two classes, one dimension): P(class 1) = σ(sum).
struct CompiledTreeEnsemble: CompiledModel {
  typealias Node = TreeEnsembleParameters.TreeNode

  let input: String
  let nodes: [Node]
  /// Index into `nodes` of each node's true and false child (−1 at leaves).
  let trueChild: [Int]
  let falseChild: [Int]
  let roots: [Int]
  let base: [Double]
  let dimensions: Int
  let transform: TreeEnsembleClassifier.PostEvaluationTransform
  let output: ClassifierOutput

  init(_ trees: TreeEnsembleClassifier, description: ModelDescription) throws(EvaluationError) {
    input = try ModelCompiler.onlyInput(description, of: "tree ensemble").name
    output = try ClassifierOutput(labels: trees.classLabels, description: description)
    let parameters = trees.treeEnsemble
    dimensions = Int(parameters.numPredictionDimensions)
    guard dimensions > 0 else { throw EvaluationError("the tree ensemble has no prediction dimensions") }
    guard parameters.basePredictionValue.isEmpty || parameters.basePredictionValue.count == dimensions else {
      throw EvaluationError("the tree ensemble's base prediction has the wrong length")
    }
    base =
      parameters.basePredictionValue.isEmpty ? Array(repeating: 0, count: dimensions) : parameters.basePredictionValue
    transform = trees.postEvaluationTransform
    let k = output.labels.count
    let expected =
      switch transform {
      case .noTransform, .logistic: k == 2 && dimensions == 1 ? 1 : k
      case .softMax: k
      case .softMaxWithZeroClassReference: k - 1
      }
    guard dimensions == expected, transform != .logistic || k == 2 else {
      throw EvaluationError("the tree ensemble has \(dimensions) dimensions for \(k) classes")
    }

    nodes = parameters.nodes
    var position: [UInt64: [UInt64: Int]] = [:]
    for (i, node) in nodes.enumerated() {
      guard position[node.treeId, default: [:]][node.nodeId] == nil else {
        throw EvaluationError("tree \(node.treeId) repeats node \(node.nodeId)")
      }
      position[node.treeId, default: [:]][node.nodeId] = i
    }
    var trueChild = [Int](repeating: -1, count: nodes.count)
    var falseChild = [Int](repeating: -1, count: nodes.count)
    var hasParent = [Bool](repeating: false, count: nodes.count)
    for (i, node) in nodes.enumerated() {
      if node.behavior == .leafNode {
        guard !node.evaluationInfo.isEmpty else { throw EvaluationError("leaf \(node.nodeId) holds no value") }
        for entry in node.evaluationInfo where entry.index >= UInt64(dimensions) {
          throw EvaluationError("leaf \(node.nodeId) adds to dimension \(entry.index) of \(dimensions)")
        }
        continue
      }
      guard let t = position[node.treeId]?[node.trueChildNodeId], let f = position[node.treeId]?[node.falseChildNodeId],
        t != i, f != i, !hasParent[t], !hasParent[f]
      else { throw EvaluationError("tree \(node.treeId) node \(node.nodeId) has invalid children") }
      trueChild[i] = t
      falseChild[i] = f
      hasParent[t] = true
      hasParent[f] = true
    }
    self.trueChild = trueChild
    self.falseChild = falseChild
    roots = nodes.indices.filter { !hasParent[$0] }
    guard Set(roots.map { nodes[$0].treeId }).count == roots.count, !roots.isEmpty else {
      throw EvaluationError("every tree needs exactly one root")
    }
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    let x = try ModelCompiler.vector(features[input], named: input)
    var sums = base
    for root in roots {
      var i = root
      var steps = 0
      while nodes[i].behavior != .leafNode {
        let node = nodes[i]
        guard Int(node.branchFeatureIndex) < x.count else {
          throw EvaluationError("a branch tests feature \(node.branchFeatureIndex) of \(x.count)")
        }
        let value = x[Int(node.branchFeatureIndex)]
        let goesTrue: Bool
        if value.isNaN {
          goesTrue = node.missingValueTracksTrueChild
        } else {
          let threshold = node.branchFeatureValue
          goesTrue =
            switch node.behavior {
            case .branchOnValueLessThanEqual: value <= threshold
            case .branchOnValueLessThan: value < threshold
            case .branchOnValueGreaterThanEqual: value >= threshold
            case .branchOnValueGreaterThan: value > threshold
            case .branchOnValueEqual: value == threshold
            case .branchOnValueNotEqual: value != threshold
            case .leafNode: false
            }
        }
        i = goesTrue ? trueChild[i] : falseChild[i]
        steps += 1
        guard steps <= nodes.count else { throw EvaluationError("a tree has a cycle") }
      }
      for entry in nodes[i].evaluationInfo { sums[Int(entry.index)] += entry.value }
    }
    let probabilities: [Double]
    switch transform {
    case .noTransform:
      probabilities = dimensions == 1 ? [1 - sums[0], sums[0]] : sums
    case .logistic:
      let positive = 1 / (1 + exp(-sums[0]))
      probabilities = [1 - positive, positive]
    case .softMax, .softMaxWithZeroClassReference:
      let scores = transform == .softMax ? sums : [0] + sums
      let largest = scores.max() ?? 0
      let exponentials = scores.map { exp($0 - largest) }
      let total = exponentials.reduce(0, +)
      probabilities = exponentials.map { $0 / total }
    }
    output.write(probabilities, to: &features)
  }
}
