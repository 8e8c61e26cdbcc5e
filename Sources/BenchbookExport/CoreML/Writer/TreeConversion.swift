import BenchbookModels

/// A fitted decision tree as a Core ML tree ensemble of one tree.
///
/// Node ids are the fitted tree's node indices; a branch's true child is its
/// left child. Leaves hold the class shares of their training rows: one
/// dimension, P(class 1), for two classes, otherwise one per class, with no
/// transform, so the sums are the probabilities. Thresholds are restated by
/// `Float32Threshold`, so Core ML's double comparisons follow the same path as
/// the fitted tree's float32 ones. A missing value follows the child that saw
/// more training rows, as the fitted tree does.
enum TreeConversion {
  static func convert(_ tree: TreeForm, width: Int, labels: ClassLabels) throws(ExportError)
    -> ClassifierStage
  {
    guard tree.featureCount == width else {
      throw ExportError("the decision tree was fitted on \(tree.featureCount) columns; the inputs give \(width)")
    }
    let classCount = tree.classCount
    let binary = classCount == 2
    var nodes: [TreeEnsembleParameters.TreeNode] = []
    nodes.reserveCapacity(tree.nodes.count)
    for (index, fitted) in tree.nodes.enumerated() {
      var node = TreeEnsembleParameters.TreeNode()
      node.nodeId = UInt64(index)
      if fitted.isLeaf {
        node.behavior = .leafNode
        let shares = Array(tree.shares(ofNode: index))
        node.evaluationInfo =
          binary ? [(UInt64(0), shares[1])] : shares.enumerated().map { (UInt64($0.offset), $0.element) }
      } else {
        guard fitted.feature >= 0 && fitted.feature < width else {
          throw ExportError("decision tree node \(index) tests column \(fitted.feature) of \(width)")
        }
        let (behavior, value) = Float32Threshold.branch(forThreshold: fitted.threshold)
        node.behavior = behavior
        node.branchFeatureIndex = UInt64(fitted.feature)
        node.branchFeatureValue = value
        node.trueChildNodeId = UInt64(fitted.left)
        node.falseChildNodeId = UInt64(fitted.right)
        node.missingValueTracksTrueChild = fitted.missingGoesLeft
      }
      nodes.append(node)
    }
    let dimensions = binary ? 1 : classCount
    let parameters = TreeEnsembleParameters(
      nodes: nodes, numPredictionDimensions: UInt64(dimensions),
      basePredictionValue: Array(repeating: 0, count: dimensions))
    let model = TreeEnsembleClassifier(
      treeEnsemble: parameters, postEvaluationTransform: .noTransform, classLabels: labels)
    return ClassifierStage(
      kind: .treeEnsembleClassifier(model), name: "treeEnsembleClassifier", specificationVersion: .iOS11,
      conditioning: nil, isUpdatable: false)
  }
}
