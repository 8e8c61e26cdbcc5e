import BenchbookModels

/// A logistic regression an app can go on training: a Core ML neural-network
/// classifier (specification version 4, iOS 13) of one updatable inner
/// product holding every class's row (a two-class model's single row z as
/// the rows 0 and z, since softmax(0, z) = (1 − σ(z), σ(z))) and a softmax,
/// with a categorical cross-entropy loss on the softmax and SGD, as Core ML
/// 3's personalisation runs it. The weights start at the fitted ones, in
/// float32.
///
/// Only a linear form fitted by the log-loss is written so (LDA's weights
/// come from class densities: SGD on the log-loss would turn it into
/// another model).
enum UpdatableLinearConversion {
  static let scores = "scores"
  static let probabilities = "probabilities"
  static let loss = "crossEntropy"

  static func convert(
    _ form: LinearForm, width: Int, labels: ClassLabels, algorithm: String, settings: UpdateSettings
  ) throws(ExportError) -> ClassifierStage {
    guard form.featureCount == width else {
      throw ExportError("the \(algorithm) has \(form.featureCount) weights per class; the inputs give \(width) columns")
    }
    guard form.classCount == labels.count else {
      throw ExportError("the \(algorithm) has \(form.weights.rows) weight rows for \(labels.count) classes")
    }
    guard settings.learningRate > 0, settings.learningRate.isFinite, settings.epochs >= 1, settings.miniBatchSize >= 1
    else {
      throw ExportError(
        "--learning-rate must be positive, --epochs and the mini-batch size at least 1 (given \(settings.learningRate), "
          + "\(settings.epochs), \(settings.miniBatchSize))")
    }
    let (weights, intercepts) = form.softmaxRows
    let floats = weights.values.map { Float($0) }
    let bias = intercepts.map { Float($0) }
    guard floats.allSatisfy(\.isFinite), bias.allSatisfy(\.isFinite) else {
      throw ExportError("the \(algorithm) has weights that do not fit in float32")
    }
    let input = NeuralNetworkNames.input
    let layers = [
      NeuralNetworkLayer(
        name: scores, inputs: [input], outputs: [scores],
        kind: .innerProduct(
          .init(
            inputChannels: UInt64(width), outputChannels: UInt64(weights.rows), hasBias: true, weights: floats,
            bias: bias, isUpdatable: true)),
        isUpdatable: true),
      NeuralNetworkLayer(name: "softmax", inputs: [scores], outputs: [probabilities], kind: .softmax),
    ]
    let epochs = Int64(settings.epochs)
    let batch = Int64(settings.miniBatchSize)
    let update = NetworkUpdateParameters(
      lossName: loss, lossInput: probabilities, lossTarget: "",
      learningRate: DoubleParameter(defaultValue: settings.learningRate, range: 0...max(1, settings.learningRate)),
      miniBatchSize: Int64Parameter(defaultValue: batch, allowed: .range(1...max(1000, batch))),
      momentum: DoubleParameter(defaultValue: 0, range: 0...1),
      epochs: Int64Parameter(defaultValue: epochs, allowed: .range(1...max(1000, epochs))), shuffle: true)
    let network = NeuralNetworkClassifier(
      layers: layers, classLabels: labels, labelProbabilityLayerName: probabilities, updateParameters: update)
    return ClassifierStage(
      kind: .neuralNetworkClassifier(network), name: "neuralNetworkClassifier", specificationVersion: .iOS13,
      conditioning: nil, isUpdatable: true)
  }
}
