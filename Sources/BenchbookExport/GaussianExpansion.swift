import BenchbookModels
import Foundation

/// Gaussian naive Bayes as a linear model of [u, u²], the form every format
/// writes it in (Core ML's neural network, the graph formats' operators).
///
/// Each class's joint log-likelihood is a quadratic in the inputs:
///   log πₖ − ½ Σⱼ log(2π σ²ₖⱼ) − ½ Σⱼ (xⱼ − θₖⱼ)² / σ²ₖⱼ
///   = cₖ + Σⱼ (θₖⱼ/σ²ₖⱼ) xⱼ − Σⱼ (1/(2σ²ₖⱼ)) xⱼ²,
/// so [x, x²] → one linear layer with bias → softmax gives the model's
/// probabilities exactly, up to the float32 the formats store weights in.
///
/// Float32 weights on raw inputs (distances in miles squared next to months)
/// would cancel large terms and lose digits, so the inputs are first centred
/// and scaled by the classes' pooled mean and spread (`conditioning`, applied
/// after the spec's standardisation), and the weights are computed for those
/// coordinates u, where every term is near 1. The class constants are centred
/// too, which a softmax ignores.
struct GaussianExpansion {
  /// u = (x − mean) / scale, in the classifier's input coordinates.
  let conditioning: Standardisation
  /// Row-major [classes, 2d]: the weights of u, then of u².
  let weights: [Float]
  /// One per class.
  let bias: [Float]

  init(_ model: GaussianForm, width: Int) throws(ExportError) {
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
    self.conditioning = Standardisation(mean: centre, scale: spread)
    self.weights = weights
    self.bias = bias
  }
}
