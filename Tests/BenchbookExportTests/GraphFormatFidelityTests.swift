import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import Foundation
import Testing

/// The TensorFlow Lite and ONNX files predict what Benchbook measured: each file is read back by Benchbook's own
/// reader of its format and run by the graph evaluator in float32, as a phone's runtime computes, on rows the
/// model never saw. (The real runtimes run them in `make runtime-check`.)
@Suite struct GraphFormatFidelityTests {
  static let formats = ["tflite", "onnx"]
  /// float32 arithmetic on a phone: 1e-4, the runtime check's tolerance.
  static let tolerance = 1e-4

  @Test(arguments: ExportFixtures.Case.allCases, ExportFixtures.Case.modelLabels)
  func filesMatchHarness(_ fixture: ExportFixtures.Case, label: String) throws {
    let trained = try ExportFixtures.train(fixture, model: label)
    let fromHarness = trained.pipeline.predictProbabilities(trained.testX)
    let ties = label.hasPrefix("KNN") ? NeighbourTies.rows(trained) : []
    for id in Self.formats {
      let format = try #require(ExportFormats.named(id))
      let file = try Exporter.export(trained.request, as: format)
      let fromFile = try format.probabilities(
        file.bytes, rows: trained.testX, features: trained.dataset.features, classes: trained.dataset.classes)
      #expect(fromFile.rows == fromHarness.rows && fromFile.columns == fromHarness.columns)
      var worst = 0.0
      for r in 0..<fromFile.rows where !ties.contains(r) {
        for c in 0..<fromFile.columns { worst = max(worst, abs(fromFile[r, c] - fromHarness[r, c])) }
      }
      #expect(worst <= Self.tolerance, "\(id): largest difference \(worst)")
    }
  }

  /// A model defined here, in the test target, exports to every format by stating its form: a class-prior
  /// baseline is a linear form with no weights and the log priors as intercepts.
  struct PriorBaseline: FittedClassifier {
    let priors: [Double]
    let features: Int
    var classCount: Int { priors.count }
    var parameterCount: Int { priors.count }
    func predictProbabilities(_ x: Matrix) -> Matrix {
      Matrix(rows: x.rows, columns: priors.count, values: (0..<x.rows).flatMap { _ in priors })
    }
    func exportForm() throws(ExportFormError) -> ExportForm {
      .linear(
        LinearForm(
          weights: Matrix(rows: priors.count, columns: features), intercepts: priors.map { log($0) }, link: .softmax,
          minimisesLogLoss: false))
    }
  }

  @Test func aModelDefinedInATestTargetExportsToEveryFormat() throws {
    let (_, dataset) = try ExportFixtures.dataset(.binary)
    let baseline = PriorBaseline(priors: [0.3, 0.7], features: dataset.x.columns)
    let request = ExportRequest(
      features: dataset.features, classes: dataset.classes, scalers: [], classifier: baseline,
      metadata: ExportMetadata(
        experiment: "binary", target: "score > 0", modelLabel: "prior", algorithm: "prior", algorithmName: "prior"))
    let formats = ExportFidelity.formats(for: baseline)
    #expect(formats.map(\.id) == ExportFormats.ids)
    for format in formats {
      let difference = try ExportFidelity.largestDifference(request, rows: dataset.x, format: format)
      #expect(difference <= 1e-6, "\(format.id): \(difference)")
    }
  }
}
