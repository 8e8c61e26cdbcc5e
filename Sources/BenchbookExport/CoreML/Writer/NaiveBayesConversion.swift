import BenchbookModels

/// Gaussian naive Bayes as a small Core ML neural-network classifier (iOS 11 layers), in the form of
/// `GaussianDistances`: the input u repeated once per class (concat) → a scale layer giving every class's
/// zₖⱼ = u·sₖⱼ − θₖⱼ·sₖⱼ → z² (multiply) → reshaped from k·d channels to [k, 1, d] (channel-first, so class c's
/// squares form channel c's width) → summed over the width → a scale layer giving bₖ − Σⱼ zₖⱼ² (scale −1 for
/// every channel, the class constants as bias) → softmax. Every layer holds O(k·d) values: the inner product of
/// −1 blocks this replaced held k²·d. The pipeline's scaler applies the spec's standardisation and the pooled
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
        name: "squaresPerClass", inputs: [NeuralNetworkNames.squares], outputs: [NeuralNetworkNames.squaresPerClass],
        kind: .reshape(.init(targetShape: [Int64(k), 1, Int64(d)]))),
      NeuralNetworkLayer(
        name: "sumsOfSquares", inputs: [NeuralNetworkNames.squaresPerClass], outputs: [NeuralNetworkNames.sums],
        kind: .reduce(.init(operation: .sum, axis: .width))),
      NeuralNetworkLayer(
        name: "jointLogLikelihood", inputs: [NeuralNetworkNames.sums], outputs: [NeuralNetworkNames.logits],
        kind: .scale(
          .init(
            scaleShape: [1], scale: [-1], biasShape: [UInt64(k)],
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
