import BenchbookModels
import Foundation

/// Gaussian naive Bayes in the form every format writes it: scaled distances to each class's means.
///
/// Each class's joint log-likelihood is
///   log πₖ − ½ Σⱼ log(2π σ²ₖⱼ) − ½ Σⱼ (xⱼ − θₖⱼ)² / σ²ₖⱼ = bₖ − Σⱼ zₖⱼ²,
/// with zₖⱼ = (xⱼ − θₖⱼ) · sₖⱼ, sₖⱼ = 1 / √(2σ²ₖⱼ), and the probabilities are its softmax.
///
/// Why not the quadratic expanded into a linear model of [x, x²]: a feature constant within a class (a one-hot
/// column) has a variance of `var_smoothing` alone, about 1e-9 of the largest, so its x² weight is near 1e9 and
/// the expanded terms cancel in float32, putting probabilities off by up to 1. Here the difference is taken
/// first, so a row at a class's mean gives exactly zero there, and the square is of a number the size of the
/// distance in standard deviations.
struct GaussianDistances {
  let classCount: Int
  let width: Int
  /// Row-major [classes, columns]: θ, the class means.
  let means: [Double]
  /// Row-major [classes, columns]: s = 1 / √(2σ²).
  let scales: [Double]
  /// One per class: bₖ, less their average (a softmax ignores a shared constant).
  let constants: [Double]

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
    var constants = [Double](repeating: 0, count: k)
    for c in 0..<k {
      var constant = log(priors[c])
      for j in 0..<d { constant -= 0.5 * log(2 * Double.pi * variance[c * d + j]) }
      constants[c] = constant
    }
    let average = constants.reduce(0, +) / Double(k)
    self.init(
      classCount: k, width: d, means: theta, scales: variance.map { 1 / (2 * $0).squareRoot() },
      constants: constants.map { $0 - average })
  }

  private init(classCount: Int, width: Int, means: [Double], scales: [Double], constants: [Double]) {
    self.classCount = classCount
    self.width = width
    self.means = means
    self.scales = scales
    self.constants = constants
  }

  /// The same distances taken on inputs before `map`: ((x − μ)/σ − θ)·s = (x − (μ + θσ))·(s/σ). A graph file
  /// applies them to the raw inputs, so a raw value equal to a class-constant feature's value gives exactly zero.
  func before(_ map: Standardisation?) -> GaussianDistances {
    guard let map else { return self }
    let d = width
    return GaussianDistances(
      classCount: classCount, width: d,
      means: means.indices.map { map.mean[$0 % d] + means[$0] * map.scale[$0 % d] },
      scales: scales.indices.map { scales[$0] / map.scale[$0 % d] }, constants: constants)
  }

  /// The inputs centred and scaled by the classes' pooled mean and standard deviation (`conditioning`, which a
  /// Core ML scaler applies in double precision), and the distances in those coordinates u: every class mean is
  /// then a few units at most, so the float32 terms zₖⱼ = u·s − θ·s of Core ML's scale layer stay small where
  /// they should cancel.
  func conditioned(priors: [Double]) -> (conditioning: Standardisation, distances: GaussianDistances) {
    let (d, k) = (width, classCount)
    var centre = [Double](repeating: 0, count: d)
    var spread = [Double](repeating: 0, count: d)
    for j in 0..<d {
      for c in 0..<k { centre[j] += priors[c] * means[c * d + j] }
      var second = 0.0
      for c in 0..<k {
        let deviation = means[c * d + j] - centre[j]
        let variance = 1 / (2 * scales[c * d + j] * scales[c * d + j])
        second += priors[c] * (variance + deviation * deviation)
      }
      spread[j] = second.squareRoot()
    }
    let conditioning = Standardisation(mean: centre, scale: spread)
    let distances = GaussianDistances(
      classCount: k, width: d, means: means.indices.map { (means[$0] - centre[$0 % d]) / spread[$0 % d] },
      scales: scales.indices.map { scales[$0] * spread[$0 % d] }, constants: constants)
    return (conditioning, distances)
  }

  /// `values` in float32, or an error naming what does not fit.
  static func single(_ values: [Double], _ what: String) throws(ExportError) -> [Float] {
    let out = values.map { Float($0) }
    guard out.allSatisfy(\.isFinite) else {
      throw ExportError("the Gaussian naive Bayes model's \(what) do not fit in float32")
    }
    return out
  }
}
