import BenchbookModels
import Foundation

/// Gaussian naive Bayes as a small Core ML neural-network classifier.
///
/// Each class's joint log-likelihood is a quadratic in the inputs:
///   log πₖ − ½ Σⱼ log(2π σ²ₖⱼ) − ½ Σⱼ (xⱼ − θₖⱼ)² / σ²ₖⱼ
///   = cₖ + Σⱼ (θₖⱼ/σ²ₖⱼ) xⱼ − Σⱼ (1/(2σ²ₖⱼ)) xⱼ²,
/// so x → [x, x²] (a multiply and a concat layer) → one inner product with
/// bias → softmax gives the model's probabilities exactly, up to the float32
/// the format stores weights in.
///
/// Float32 weights on raw inputs (distances in miles squared next to months)
/// would cancel large terms and lose digits, so the pipeline's scaler also
/// centres and scales each column by the classes' pooled mean and spread, in
/// double precision, and the weights are computed for those coordinates, where
/// every term is near 1. The class constants are centred too, which a softmax
/// ignores.
enum NaiveBayesConversion {
  static func convert(_ model: GaussianForm, width: Int, labels: ClassLabels) throws(ExportError)
    -> ClassifierStage
  {
    let d = model.featureCount
    let k = model.classCount
    guard d == width else {
      throw ExportError("the Gaussian naive Bayes model has \(d) features; the inputs give \(width) columns")
    }
    let theta = model.means.values
    let variance = model.variances.values
    let priors = model.priors
    guard theta.allSatisfy(\.isFinite), variance.allSatisfy({ $0 > 0 && $0.isFinite }),
      priors.allSatisfy({ $0 > 0 })
    else {
      throw ExportError("the Gaussian naive Bayes model has non-finite means, non-positive variances or empty classes")
    }

    // Conditioning: u = (x − centre) / spread, with the pooled mean and standard deviation.
    var centre = [Double](repeating: 0, count: d)
    var spread = [Double](repeating: 0, count: d)
    for j in 0..<d {
      for c in 0..<k { centre[j] += priors[c] * theta[c * d + j] }
      var second = 0.0
      for c in 0..<k {
        let deviation = theta[c * d + j] - centre[j]
        second += priors[c] * (variance[c * d + j] + deviation * deviation)
      }
      spread[j] = second.squareRoot()
    }

    // Per class in u: mean (θ − centre)/spread, variance σ²/spread².
    var weights = [Float](repeating: 0, count: k * 2 * d)
    var constants = [Double](repeating: 0, count: k)
    for c in 0..<k {
      var constant = log(priors[c])
      for j in 0..<d {
        let mean = (theta[c * d + j] - centre[j]) / spread[j]
        let scaledVariance = variance[c * d + j] / (spread[j] * spread[j])
        constant -= 0.5 * log(2 * Double.pi * variance[c * d + j])
        constant -= 0.5 * mean * mean / scaledVariance
        weights[c * 2 * d + j] = Float(mean / scaledVariance)
        weights[c * 2 * d + d + j] = Float(-0.5 / scaledVariance)
      }
      constants[c] = constant
    }
    let average = constants.reduce(0, +) / Double(k)
    let bias = constants.map { Float($0 - average) }
    guard weights.allSatisfy(\.isFinite), bias.allSatisfy(\.isFinite) else {
      throw ExportError("the Gaussian naive Bayes model's weights do not fit in float32")
    }

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
      conditioning: Standardisation(mean: centre, scale: spread), isUpdatable: false)
  }
}
