import BenchbookModels

/// Gaussian naive Bayes as a small Core ML neural-network classifier (iOS 11 layers), in the form of
/// `GaussianDistances`: the input u repeated once per class (concat) → a scale layer giving every class's
/// zₖⱼ = u·sₖⱼ − θₖⱼ·sₖⱼ → z² (multiply) → an inner product of −1 blocks, one per class, with the class
/// constants as bias → softmax. The pipeline's scaler applies the spec's standardisation and the pooled
/// conditioning, in double precision, so the class means the layers subtract are a few units at most.
enum NaiveBayesConversion {
  static func convert(_ model: GaussianForm, width: Int, labels: ClassLabels) throws(ExportError)
    -> ClassifierStage
  {
    let (conditioning, distances) = try GaussianDistances(model, width: width).conditioned(priors: model.priors)
    let (d, k) = (width, model.classCount)
    let scale = try GaussianDistances.single(distances.scales, "scales")
    let shift = try GaussianDistances.single(
      distances.means.indices.map { -distances.means[$0] * distances.scales[$0] }, "means")
    var sums = [Float](repeating: 0, count: k * k * d)
    for c in 0..<k {
      for j in 0..<d { sums[c * k * d + c * d + j] = -1 }
    }
    let input = NeuralNetworkNames.input
    let layers = [
      NeuralNetworkLayer(
        name: "perClass", inputs: Array(repeating: input, count: k), outputs: [NeuralNetworkNames.replicated],
        kind: .concat),
      NeuralNetworkLayer(
        name: "scaledDistances", inputs: [NeuralNetworkNames.replicated], outputs: [NeuralNetworkNames.distances],
        kind: .scale(.init(shape: [UInt64(k * d)], scale: scale, bias: shift))),
      NeuralNetworkLayer(
        name: "squares", inputs: [NeuralNetworkNames.distances, NeuralNetworkNames.distances],
        outputs: [NeuralNetworkNames.squares], kind: .multiply(alpha: 0)),
      NeuralNetworkLayer(
        name: "jointLogLikelihood", inputs: [NeuralNetworkNames.squares], outputs: [NeuralNetworkNames.logits],
        kind: .innerProduct(
          .init(
            inputChannels: UInt64(k * d), outputChannels: UInt64(k), hasBias: true, weights: sums,
            bias: try GaussianDistances.single(distances.constants, "class constants")))),
      NeuralNetworkLayer(
        name: "softmax", inputs: [NeuralNetworkNames.logits], outputs: [NeuralNetworkNames.probabilities],
        kind: .softmax),
    ]
    let network = NeuralNetworkClassifier(
      layers: layers, classLabels: labels, labelProbabilityLayerName: NeuralNetworkNames.probabilities)
    return ClassifierStage(
      kind: .neuralNetworkClassifier(network), name: "neuralNetworkClassifier", specificationVersion: .iOS11,
      conditioning: conditioning, isUpdatable: false)
  }
}
