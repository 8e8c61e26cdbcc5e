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
    // The rows as an app passes them to a float32 file: a forest's split may lie within float32 rounding of a value.
    let rows = Matrix(
      rows: trained.testX.rows, columns: trained.testX.columns,
      values: trained.testX.values.map {
        Double(Float($0))
      })
    let fromHarness = trained.pipeline.predictProbabilities(rows)
    let ties = label.hasPrefix("KNN") ? NeighbourTies.rows(trained) : []
    for id in Self.formats {
      let format = try #require(ExportFormats.named(id))
      let file = try Exporter.export(trained.request, as: format)
      let fromFile = try format.probabilities(
        file.bytes, rows: rows, features: trained.dataset.features, classes: trained.dataset.classes)
      #expect(fromFile.rows == fromHarness.rows && fromFile.columns == fromHarness.columns)
      var worst = 0.0
      for r in 0..<fromFile.rows where !ties.contains(r) {
        for c in 0..<fromFile.columns { worst = max(worst, abs(fromFile[r, c] - fromHarness[r, c])) }
      }
      #expect(worst <= Self.tolerance, "\(id): largest difference \(worst)")
    }
  }
}
