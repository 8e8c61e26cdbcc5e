import BenchbookModels

/// The classifier at the end of the pipeline, converted from one of
/// Benchbook's fitted models.
struct ClassifierStage {
  /// The Core ML model and its parameters.
  var kind: CoreMLModel.Kind
  /// Name of the stage in the pipeline.
  var name: String
  /// The lowest specification version this model type needs.
  var specificationVersion: SpecificationVersion
  /// A further standardisation the converted parameters assume, applied after
  /// the spec's own (Gaussian naive Bayes centres and scales its inputs so the
  /// float32 network sees numbers near 1).
  var conditioning: Standardisation?
  /// Whether Core ML can update this model on device.
  var isUpdatable: Bool
  /// The algorithm, for descriptions.
  var algorithm: ModelDescriptor

  /// Converts any fitted classifier that knows its Core ML form (`CoreMLConvertible`).
  ///
  /// - Parameters:
  ///   - width: columns of the design matrix the classifier was fitted on.
  ///   - classes: the class labels, in the classifier's column order.
  static func convert(
    _ classifier: any FittedClassifier, width: Int, classes: [String], updatable: Bool
  ) throws(ExportError) -> ClassifierStage {
    guard classifier.classCount == classes.count else {
      throw ExportError(
        "the classifier predicts \(classifier.classCount) classes but the data has \(classes.count); "
          + "a model fitted on some of the classes only cannot be exported")
    }
    let labels = LabelType(labels: classes).classLabels(classes)
    // Models fitted on some classes only are wrapped and are not convertible; the check above names that case.
    guard let model = classifier as? any CoreMLConvertible else {
      throw ExportError(
        "Core ML export does not support \(type(of: classifier)): it writes logistic regression, LDA, k-nearest "
          + "neighbours, decision trees and Gaussian naive Bayes, fitted on rows holding every class")
    }
    let stage = try model.classifierStage(width: width, classes: classes, labels: labels, updatable: updatable)
    if updatable && !stage.isUpdatable {
      throw ExportError(
        "--updatable needs a k-nearest-neighbours model; a \(stage.algorithm.displayName) cannot learn from "
          + "an app's examples in Core ML")
    }
    return stage
  }
}

extension ClassifierStage {
  /// Points the classifier at the pipeline feature it reads. Only a neural
  /// network names its input inside the model (in its layers).
  mutating func bindInput(_ name: String) {
    guard case .neuralNetworkClassifier(var network) = kind else { return }
    for i in network.layers.indices {
      network.layers[i].inputs = network.layers[i].inputs.map { $0 == NeuralNetworkNames.input ? name : $0 }
    }
    kind = .neuralNetworkClassifier(network)
  }
}
