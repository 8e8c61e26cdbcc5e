import BenchbookEvaluation
import BenchbookReport
import Foundation

/// The results of `Fixtures/campaigns.yaml` (and of `Fixtures/iris-tuned.yaml`), frozen, timings included, so
/// rendering them is deterministic.
enum ReportFixture {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  static func results() throws -> ExperimentResults {
    try ResultsFile.read(directory.appendingPathComponent("Fixtures/campaigns-results.json").path)
  }

  /// The results of `Fixtures/iris-tuned.yaml`: four tuned models, one untuned, and a Core ML size budget.
  static func tunedResults() throws -> ExperimentResults {
    try ResultsFile.read(directory.appendingPathComponent("Fixtures/iris-tuned-results.json").path)
  }

  /// Every plot of the campaigns results as drawn, without drawing it.
  static var drawnPlots: [PlotOutcome] { (try? results()).map(drawnPlots(for:)) ?? [] }

  /// Every plot that applies to `results` as drawn, without drawing it.
  static func drawnPlots(for results: ExperimentResults) -> [PlotOutcome] {
    PlotRenderer.notDrawn(because: "", for: results).map {
      var plot = $0; plot.skippedBecause = nil; return plot
    }
  }

  /// Writes an executable stand-in through a descriptor closed on exec. A descriptor without that flag (Foundation's
  /// writes) is inherited by any process another test spawns meanwhile, which then holds the file open for writing
  /// for as long as it runs, and running the stand-in fails with "Text file busy".
  static func writeExecutable(_ text: String, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    guard write(descriptor, bytes, bytes.count) == bytes.count else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
  }

  static func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
