import BenchbookEvaluation
import BenchbookReport
import Foundation

/// The results of `Fixtures/campaigns.yaml`, frozen, timings included, so rendering them is
/// deterministic.
enum ReportFixture {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  static func results() throws -> ExperimentResults {
    try ResultsFile.read(directory.appendingPathComponent("Fixtures/campaigns-results.json").path)
  }

  /// Every plot as drawn, without drawing it.
  static var drawnPlots: [PlotOutcome] {
    PlotRenderer.notDrawn(because: "").map {
      var plot = $0; plot.skippedBecause = nil; return plot
    }
  }

  static func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
