import BenchbookModels

/// The classifier at the end of the pipeline, lowered from the fitted model's `ExportForm`.
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

  /// Lowers any fitted classifier by the form it states (`FittedClassifier.exportForm()`).
  ///
  /// - Parameters:
  ///   - width: columns of the design matrix the classifier was fitted on.
  ///   - classes: the class labels, in the classifier's column order.
  ///   - algorithm: the algorithm's name, for messages.
  static func convert(
    _ classifier: any FittedClassifier, width: Int, classes: [String], algorithm: String, updatable: Bool,
    updateSettings: UpdateSettings
  ) throws(ExportError) -> ClassifierStage {
    guard classifier.classCount == classes.count else {
      throw ExportError(
        "the classifier predicts \(classifier.classCount) classes but the data has \(classes.count); "
          + "a model fitted on some of the classes only cannot be exported")
    }
    let form: ExportForm
    do {
      form = try classifier.exportForm()
    } catch {
      throw ExportError(error.message)
    }
    let labels = LabelType(labels: classes).classLabels(classes)
    let stage: ClassifierStage
    switch form {
    case .linear(let linear) where updatable && linear.minimisesLogLoss:
      stage = try UpdatableLinearConversion.convert(
        linear, width: width, labels: labels, algorithm: algorithm, settings: updateSettings)
    case .linear(let linear):
      stage = try LinearModelConversion.convert(linear, width: width, labels: labels, algorithm: algorithm)
    case .gaussian(let gaussian):
      stage = try NaiveBayesConversion.convert(gaussian, width: width, labels: labels)
    case .tree(let tree):
      stage = try TreeConversion.convert(tree, width: width, labels: labels)
    case .treeEnsemble(let ensemble):
      stage = try TreeEnsembleConversion.convert(ensemble, width: width, labels: labels)
    case .neighbors(let neighbors):
      stage = try NeighborsConversion.convert(neighbors, width: width, classes: classes, updatable: updatable)
    }
    if updatable && !stage.isUpdatable {
      throw ExportError(
        "--updatable needs a k-nearest-neighbours model or a logistic regression; a \(algorithm) cannot learn from "
          + "an app's examples in Core ML")
    }
    return stage
  }
}

extension ClassifierStage {
  /// Points the classifier at the pipeline feature it reads, and an updatable network's loss at the training
  /// input holding the true class. Only a neural network names its input inside the model (in its layers).
  mutating func bindInput(_ name: String, label: String) {
    guard case .neuralNetworkClassifier(var network) = kind else { return }
    for i in network.layers.indices {
      network.layers[i].inputs = network.layers[i].inputs.map { $0 == NeuralNetworkNames.input ? name : $0 }
    }
    network.updateParameters?.lossTarget = label
    kind = .neuralNetworkClassifier(network)
  }
}
