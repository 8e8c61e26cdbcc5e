import BenchbookModels

/// A fitted k-nearest-neighbours model as Core ML's k-nearest-neighbours
/// classifier (specification version 4, iOS 13).
///
/// Every training row is stored, as float32, with its own label; the index is
/// the one the model used (kd-tree with its leaf size, or linear); uniform or
/// inverse-distance weighting as fitted. The neighbour count is fixed to the
/// k that was measured, or, for an updatable model, may be chosen by the app
/// within 1…max(k, 1000).
enum NeighborsConversion {
  static func convert(_ model: NeighborsForm, width: Int, classes: [String], updatable: Bool)
    throws(ExportError) -> ClassifierStage
  {
    guard model.featureCount == width else {
      throw ExportError(
        "the k-nearest-neighbours model stores \(model.featureCount) columns; the inputs give \(width)")
    }
    var samples: [Float] = []
    samples.reserveCapacity(model.samples.values.count)
    for value in model.samples.values {
      let single = Float(value)
      guard single.isFinite else {
        throw ExportError("a stored sample value (\(value)) does not fit in float32, which Core ML stores samples as")
      }
      samples.append(single)
    }
    let labelType = LabelType(labels: classes)
    let sampleLabels = labelType.classLabels(indices: model.labels, of: classes)
    let index: NearestNeighborsIndex.IndexType =
      switch model.index {
      case .kdTree(let leafSize): .kdTree(leafSize: leafSize)
      case .linear: .linear
      }
    let k = Int64(model.k)
    let neighbours = Int64Parameter(
      defaultValue: k, allowed: updatable ? .range(1...max(k, 1000)) : .set([k]))
    let classifier = KNearestNeighborsClassifier(
      index: NearestNeighborsIndex(
        numberOfDimensions: width, samples: samples, sampleCount: model.sampleCount, indexType: index,
        usesSquaredEuclideanDistance: true),
      numberOfNeighbors: neighbours, labels: sampleLabels,
      weighting: model.weighting == .uniform ? .uniform : .inverseDistance)
    return ClassifierStage(
      kind: .kNearestNeighborsClassifier(classifier), name: "kNearestNeighborsClassifier",
      specificationVersion: .iOS13, conditioning: nil, isUpdatable: true)
  }
}
