import BenchbookEvaluation
import BenchbookReport
import Foundation
import Testing

@Suite struct ReportRendererTests {
  static let goldenPath = ReportFixture.directory.appendingPathComponent("ReportRendererTests.golden.md").path

  /// The whole Markdown of a small experiment. Re-record with BENCHBOOK_RECORD_GOLDENS=1 and read the diff.
  @Test func markdownMatchesTheGolden() throws {
    let markdown = ReportRenderer.markdown(try ReportFixture.results(), plots: ReportFixture.drawnPlots)
    if ProcessInfo.processInfo.environment["BENCHBOOK_RECORD_GOLDENS"] == "1" {
      try markdown.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
    }
    let golden = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
    #expect(markdown == golden, "report differs from the golden; re-record with BENCHBOOK_RECORD_GOLDENS=1 if intended")
  }

  @Test func sectionsComeInTheDocumentedOrder() throws {
    let markdown = ReportRenderer.markdown(try ReportFixture.results(), plots: ReportFixture.drawnPlots)
    let headings = [
      "# campaigns", "## Results", "### Timing", "## Is the winner really better?", "## How the scores were made",
      "## Data", "## Plots", "## Reproduce",
    ]
    let positions = headings.map {
      markdown.range(of: "\n\($0)\n")?.lowerBound ?? markdown.range(of: "\($0)\n")!.lowerBound
    }
    #expect(positions == positions.sorted())
  }

  @Test func headlineNamesTheWinnerAndTheMargin() throws {
    let markdown = ReportRenderer.markdown(try ReportFixture.results(), plots: [])
    let firstParagraph = markdown.components(separatedBy: "\n\n")[2]
    #expect(firstParagraph.contains("Logistic regression (LR) scores best"))
    #expect(firstParagraph.contains("0.048 lower than linear discriminant analysis (LDA)"))
  }

  @Test func aClearWinnerIsCalledSignificantlyBetter() throws {
    var results = try ReportFixture.results()
    // Make every other model worse than LR by a steady 0.3 on every fold.
    let best = results.models.first { $0.label == "LR" }!
    for index in results.models.indices where results.models[index].label != "LR" {
      for fold in results.models[index].folds.indices {
        results.models[index].folds[fold].logLoss = best.folds[fold].logLoss + 0.3 + 0.01 * Double(fold)
      }
      results.models[index].logLoss = Summary(results.models[index].folds.map(\.logLoss))
    }
    let markdown = ReportRenderer.markdown(results, plots: [])
    #expect(markdown.contains("it is better than every other model by the corrected resampled t-test"))
    #expect(markdown.contains("At α = 0.05, LR is better than every other model."))
  }

  @Test func clippingDominatedModelsAreFlagged() throws {
    let markdown = ReportRenderer.markdown(try ReportFixture.results(), plots: [])
    #expect(markdown.contains("⚠️ **DT** is scored mostly by clipped errors"))
  }

  @Test func skippedPlotsAreNamedWithTheirReason() throws {
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let plots = PlotRenderer.draw(
      try ReportFixture.results(), into: directory.path, environment: ["PATH": "/nonexistent"])
    #expect(plots.allSatisfy { $0.skippedBecause?.contains("gnuplot is not installed") == true })
    let markdown = ReportRenderer.markdown(try ReportFixture.results(), plots: plots)
    #expect(markdown.contains("Plots not drawn:"))
    #expect(markdown.contains("log-loss-box.svg`): gnuplot is not installed"))
    #expect(!markdown.contains("![Per-fold log-loss"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no partial files")
  }

  @Test func indexListsEveryExperimentWithItsWinner() throws {
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try ResultsFile.write(try ReportFixture.results(), to: directory.appendingPathComponent("campaigns").path)
    let path = try ReportIndex.write(reportsDirectory: directory.path)
    let index = try String(contentsOfFile: path, encoding: .utf8)
    #expect(index.contains("[campaigns](campaigns/report.md)"))
    #expect(index.contains("Will a crowdfunding campaign reach its goal?"))
    #expect(index.contains("LR, logistic regression"))
    #expect(index.contains("0.4293 ± 0.0834"))
  }
}
