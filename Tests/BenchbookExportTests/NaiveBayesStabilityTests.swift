import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// Gaussian naive Bayes with a feature constant within a class: every Chinstrap penguin lives on Dream, so
/// island's one-hot columns have a within-class variance of var_smoothing alone. The files (scaled distances to
/// the class means, `GaussianDistances`) give Benchbook's probabilities on every penguin in every format; the
/// expansion into [u, u²] they replaced, computed here in float32 as its files did, does not.
@Suite struct NaiveBayesStabilityTests {
  static func fit() throws -> (Dataset, FittedPipeline, ExperimentSpec, ModelSpec) {
    let spec = try SpecParser.parse(
      yaml: """
        name: penguins-nb
        data: {path: "\(ImputerExportTests.penguins)"}
        target: species
        features: [island, bill_length_mm, bill_depth_mm, flipper_length_mm, body_mass_g,
                   {sex: {impute: {strategy: most_frequent}}}]
        preprocess: [{impute: {strategy: mean}}, standardize]
        models: [NB]

        """, path: "nb.yaml")
    let dataset = try Dataset.load(spec.dataset)
    let model = spec.models[0]
    let pipeline = try FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing).fitAllRows(model)
    return (dataset, pipeline, spec, model)
  }

  @Test func everyFormatGivesBenchbooksProbabilities() throws {
    let (dataset, pipeline, spec, model) = try Self.fit()
    let expected = pipeline.predictProbabilities(dataset.x)
    for format in ExportFormats.all {
      let file = try OnDeviceCost.export(
        spec, dataset: dataset, model: model, pipeline: pipeline, format: format, crossValidatedLogLoss: nil)
      let got = try format.probabilities(
        file.bytes, rows: dataset.x, features: dataset.features, classes: dataset.classes)
      let worst = got.largestDifference(from: expected)
      #expect(worst <= 1e-5, "\(format.name): largest difference \(worst)")
    }
  }

  /// The old form, [u, u²]·W + b in float32 with u the pooled-standardised inputs: off by more than 0.1 on some
  /// penguin, which is why it went.
  @Test func theExpandedFormFailsHere() throws {
    let (dataset, pipeline, _, _) = try Self.fit()
    guard case .gaussian(let form) = try pipeline.classifier.exportForm() else {
      Issue.record("not a Gaussian form")
      return
    }
    let x = pipeline.preprocessing.transform(dataset.x)
    let (d, k) = (form.featureCount, form.classCount)
    let theta = form.means.values
    let variance = form.variances.values
    var centre = [Double](repeating: 0, count: d)
    var spread = [Double](repeating: 0, count: d)
    for j in 0..<d {
      for c in 0..<k { centre[j] += form.priors[c] * theta[c * d + j] }
      var second = 0.0
      for c in 0..<k {
        let deviation = theta[c * d + j] - centre[j]
        second += form.priors[c] * (variance[c * d + j] + deviation * deviation)
      }
      spread[j] = second.squareRoot()
    }
    var weights = [Float](repeating: 0, count: k * 2 * d)
    var bias = [Float](repeating: 0, count: k)
    for c in 0..<k {
      var constant = log(form.priors[c])
      for j in 0..<d {
        let mean = (theta[c * d + j] - centre[j]) / spread[j]
        let scaled = variance[c * d + j] / (spread[j] * spread[j])
        constant -= 0.5 * log(2 * Double.pi * variance[c * d + j]) + 0.5 * mean * mean / scaled
        weights[c * 2 * d + j] = Float(mean / scaled)
        weights[c * 2 * d + d + j] = Float(-0.5 / scaled)
      }
      bias[c] = Float(constant)
    }
    let expected = pipeline.predictProbabilities(dataset.x)
    var worst = 0.0
    for r in 0..<x.rows {
      let u = (0..<d).map { Float((x[r, $0] - centre[$0]) / spread[$0]) }
      var scores = (0..<k).map { c in
        (0..<d).reduce(bias[c]) { $0 + weights[c * 2 * d + $1] * u[$1] + weights[c * 2 * d + d + $1] * u[$1] * u[$1] }
      }
      let largest = scores.max()!
      scores = scores.map { Float(exp(Double($0 - largest))) }
      let total = scores.reduce(0, +)
      for c in 0..<k { worst = max(worst, abs(Double(scores[c] / total) - expected[r, c])) }
    }
    #expect(worst > 0.1, "the expanded form's largest difference: \(worst)")
  }
}
