import BenchbookModels

/// A fitted tree ensemble (a forest, boosting) as one Core ML tree ensemble classifier.
///
/// Tree ids are the form's tree indices and node ids each tree's node indices; a branch's true child is its left
/// child, its threshold restated by `Float32Threshold` as a single tree's is (or kept, for a form comparing doubles),
/// and a missing value goes where the fit sends it. The form's transform maps onto Core ML's post-evaluation transform:
/// - none (a forest): the leaves add their class shares over the tree count; two classes keep one dimension,
///   P(class 1), as a single tree does;
/// - logistic (two-class boosting): one dimension from the baseline, then σ;
/// - softmax (many-class boosting): a dimension per class from the baselines, then softmax.
enum TreeEnsembleConversion {
  static func convert(_ form: TreeEnsembleForm, width: Int, labels: ClassLabels) throws(ExportError)
    -> ClassifierStage
  {
    guard form.featureCount == width else {
      throw ExportError("the tree ensemble was fitted on \(form.featureCount) columns; the inputs give \(width)")
    }
    // Two classes without a transform keep only the second class's score (the first is one minus it).
    let keepsSecondOnly = form.transform == .none && form.classCount == 2
    let dimensions = keepsSecondOnly ? 1 : form.scoreCount
    var nodes: [TreeEnsembleParameters.TreeNode] = []
    nodes.reserveCapacity(form.nodeCount)
    for (treeIndex, tree) in form.trees.enumerated() {
      for (index, fitted) in tree.nodes.enumerated() {
        var node = TreeEnsembleParameters.TreeNode()
        node.treeId = UInt64(treeIndex)
        node.nodeId = UInt64(index)
        if fitted.isLeaf {
          node.behavior = .leafNode
          var entries: [(index: UInt64, value: Double)] = []
          for (j, value) in tree.values(ofNode: index).enumerated() {
            let score = tree.firstScore + j
            if keepsSecondOnly {
              if score == 1 { entries.append((0, value)) }
            } else {
              entries.append((UInt64(score), value))
            }
          }
          // Core ML needs a value at every leaf; a zero adds nothing.
          node.evaluationInfo = entries.isEmpty ? [(0, 0)] : entries
        } else {
          guard fitted.feature >= 0 && fitted.feature < width, !fitted.threshold.isNaN else {
            throw ExportError("tree \(treeIndex) node \(index) tests column \(fitted.feature) of \(width)")
          }
          // Core ML compares the (scaled) double input: a float32 split is restated, a double one widened.
          let (behavior, value) =
            form.comparesFloat32
            ? Float32Threshold.branch(forThreshold: fitted.threshold)
            : (.branchOnValueLessThanEqual, Self.widened(fitted.threshold))
          node.behavior = behavior
          node.branchFeatureIndex = UInt64(fitted.feature)
          node.branchFeatureValue = value
          node.trueChildNodeId = UInt64(fitted.left)
          node.falseChildNodeId = UInt64(fitted.right)
          node.missingValueTracksTrueChild = fitted.missingGoesLeft
        }
        nodes.append(node)
      }
    }
    guard nodes.allSatisfy({ $0.evaluationInfo.allSatisfy { $0.value.isFinite } }),
      form.baseScores.allSatisfy(\.isFinite)
    else { throw ExportError("the tree ensemble has non-finite leaves") }
    let parameters = TreeEnsembleParameters(
      nodes: nodes, numPredictionDimensions: UInt64(dimensions),
      basePredictionValue: keepsSecondOnly ? [form.baseScores[1]] : form.baseScores)
    let transform: TreeEnsembleClassifier.PostEvaluationTransform =
      switch form.transform {
      case .none: .noTransform
      case .logistic: .logistic
      case .softmax: .softMax
      }
    let model = TreeEnsembleClassifier(
      treeEnsemble: parameters, postEvaluationTransform: transform, classLabels: labels)
    return ClassifierStage(
      kind: .treeEnsembleClassifier(model), name: "treeEnsembleClassifier", specificationVersion: .iOS11,
      conditioning: nil, isUpdatable: false)
  }

  /// A split of unrounded values restated for Core ML's scaler: the fit standardises as (x − mean) / scale, the
  /// scaler stage as (x + shift) · (1 / scale), and the two differ by at most two units in the last place. A
  /// threshold four units up keeps every value the fit sends left on the left; only a value within those units
  /// above the split (rounding, not data: boosting's thresholds are training values or midpoints between them)
  /// can cross.
  static func widened(_ threshold: Double) -> Double {
    guard threshold.isFinite else { return threshold }
    var value = threshold
    for _ in 0..<4 { value = value.nextUp }
    return value
  }
}
