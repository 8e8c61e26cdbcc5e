import BenchbookModels

/// Gaussian naive Bayes as a small Core ML neural-network classifier:
/// x → [x, x²] (a multiply and a concat layer) → one inner product with bias
/// → softmax, with the weights of `GaussianExpansion`; the pipeline's scaler
/// applies its conditioning, in double precision.
enum NaiveBayesConversion {
  static func convert(_ model: GaussianForm, width: Int, labels: ClassLabels) throws(ExportError)
    -> ClassifierStage
  {
    let expansion = try GaussianExpansion(model, width: width)
    let (d, k, weights, bias) = (width, model.classCount, expansion.weights, expansion.bias)
    let input = NeuralNetworkNames.input
    let layers = [
      NeuralNetworkLayer(
        name: "squares", inputs: [input, input], outputs: [NeuralNetworkNames.squares], kind: .multiply(alpha: 0)),
      NeuralNetworkLayer(
        name: "expand", inputs: [input, NeuralNetworkNames.squares], outputs: [NeuralNetworkNames.expanded],
        kind: .concat),
      NeuralNetworkLayer(
        name: "jointLogLikelihood", inputs: [NeuralNetworkNames.expanded], outputs: [NeuralNetworkNames.logits],
        kind: .innerProduct(
          .init(
            inputChannels: UInt64(2 * d), outputChannels: UInt64(k), hasBias: true, weights: weights, bias: bias))),
      NeuralNetworkLayer(
        name: "softmax", inputs: [NeuralNetworkNames.logits], outputs: [NeuralNetworkNames.probabilities],
        kind: .softmax),
    ]
    let network = NeuralNetworkClassifier(
      layers: layers, classLabels: labels, labelProbabilityLayerName: NeuralNetworkNames.probabilities)
    return ClassifierStage(
      kind: .neuralNetworkClassifier(network), name: "neuralNetworkClassifier", specificationVersion: .iOS11,
      conditioning: expansion.conditioning, isUpdatable: false)
  }
}
