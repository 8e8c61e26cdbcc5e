import BenchbookEvaluation
import BenchbookReport
import BenchbookSpec
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
      "# campaigns", "## Leak audit", "## Results", "### Timing", "## Is the winner really better?",
      "## How the scores were made", "## Data", "## Plots", "## Reproduce",
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
    let standing = try ReportFixture.results().audit!.findings.filter { !$0.accepted && $0.severity == .warning }
    #expect(!standing.isEmpty)
    #expect(index.contains("| ⚠️ \(standing.count) warning"), "the leak audit's standing findings beside the score")
  }

  /// Tuned and untuned experiments side by side: how each was tuned, and the best model inside its budget.
  @Test func indexShowsTuningAndBudget() throws {
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try ResultsFile.write(try ReportFixture.results(), to: directory.appendingPathComponent("campaigns").path)
    try ResultsFile.write(try ReportFixture.tunedResults(), to: directory.appendingPathComponent("iris-tuned").path)
    let index = try String(contentsOfFile: try ReportIndex.write(reportsDirectory: directory.path), encoding: .utf8)
    let rows = index.split(separator: "\n")
    let campaigns = try #require(rows.first { $0.contains("[campaigns]") })
    let tuned = try #require(rows.first { $0.contains("[iris-tuned]") })
    #expect(campaigns.contains("| defaults |"))
    #expect(tuned.contains("4 of 5 models, nested (inner stratified-kfold, 5 folds)"))
    #expect(tuned.contains("LDA, 0.0486 (a Core ML file of at most 3.0 kB)"))
  }

  // MARK: - Leak audit

  /// The fixture's results with its audit findings replaced.
  static func results(with findings: [AuditFinding]) throws -> ExperimentResults {
    var results = try ReportFixture.results()
    results.audit!.findings = findings
    return results
  }

  static func finding(
    _ check: AuditCheckID, _ severity: AuditSeverity, _ subject: String, _ evidence: [String: EvidenceValue] = [:]
  ) -> AuditFinding {
    AuditFinding(
      check: check, severity: severity, subject: subject, message: "Message about \(subject).",
      evidence: .object(evidence))
  }

  @Test func leakAuditComesRightAfterTheAnswerOnlyWhenAWarningStands() throws {
    let warned = ReportRenderer.markdown(try ReportFixture.results(), plots: ReportFixture.drawnPlots)
    let audit = try #require(warned.range(of: "## Leak audit"))
    #expect(audit.lowerBound < warned.range(of: "## Results")!.lowerBound)

    let notes = ReportRenderer.markdown(
      try Self.results(with: [Self.finding(.suspectLeak, .info, "goal")]), plots: ReportFixture.drawnPlots)
    let late = try #require(notes.range(of: "## Leak audit"))
    #expect(late.lowerBound > notes.range(of: "## Plots")!.lowerBound)
    #expect(late.lowerBound < notes.range(of: "## Reproduce")!.lowerBound)
    #expect(notes.components(separatedBy: "## Leak audit").count == 2, "shown once")

    var accepted = Self.finding(.postOutcomeFeature, .error, "backers")
    accepted.accepted = true
    accepted.acceptedBecause = "we study the leak"
    let acceptedOnly = ReportRenderer.markdown(try Self.results(with: [accepted]), plots: [])
    #expect(acceptedOnly.range(of: "## Leak audit")!.lowerBound > acceptedOnly.range(of: "## Data")!.lowerBound)
    #expect(acceptedOnly.contains("### ⛔ Error: `backers` is known only after the prediction (accepted)"))
    #expect(acceptedOnly.contains("> **Accepted** in the spec: we study the leak"))
  }

  @Test func resultsWithoutAnAuditHaveNoAuditSection() throws {
    var results = try ReportFixture.results()
    results.audit = nil
    let markdown = ReportRenderer.markdown(results, plots: ReportFixture.drawnPlots)
    #expect(!markdown.contains("Leak audit"))
    #expect(!markdown.contains("audit-fold-times.svg"))
  }

  @Test func everyCheckIsExplainedWithItsEvidence() throws {
    let late: [String: EvidenceValue] = [
      "known": "after-outcome", "rows_compared": 10, "rows_known_after_prediction": 4, "share": 0.4,
      "median_delay_seconds": 5400,
    ]
    let suspect: [String: EvidenceValue] = [
      "screens": ["drop-column", "single-feature-auc"], "model": "LR", "log_loss": 0.2, "log_loss_without": 0.5,
      "null_log_loss": 0.6, "drop_column_share": 0.5, "single_feature_auc": 0.991, "rows": 900, "source_fold": 1,
      "folds": 5,
    ]
    let proxy: [String: EvidenceValue] = ["time_column": "launched_at", "spearman": 0.998, "rows": 116]
    let fold: EvidenceValue = ["fold": 0, "repeat": 0, "test_rows": 24, "duplicates": 9, "share": 0.375]
    let duplicates: [String: EvidenceValue] = ["test_rows": 116, "duplicates": 9, "share": 0.0776, "folds": [fold]]
    let scaled: EvidenceValue = ["name": "goal", "mean": 0.0001, "sd": 1.0]
    let standardized: [String: EvidenceValue] = ["tolerance": 0.01, "features": [scaled]]
    let coverage: [String: EvidenceValue] = ["class": "successful", "folds": [2], "test_rows": 5, "rows_in_data": 41]
    let findings = [
      Self.finding(.postOutcomeFeature, .error, "backers", late),
      Self.finding(.suspectLeak, .warning, "pledged", suspect),
      Self.finding(.timeProxy, .warning, "id", proxy),
      Self.finding(.crossFoldDuplicates, .error, "rows", duplicates),
      Self.finding(.preprocessingScope, .warning, "input", standardized),
      Self.finding(.classCoverage, .warning, "successful", coverage),
    ]
    let markdown = ReportRenderer.markdown(try Self.results(with: findings), plots: [])
    for (title, evidence) in [
      ("`backers` is known only after the prediction", "known after `predict_at` in 4 of 10 rows (40.0%)"),
      ("`pledged` is suspiciously predictive", "the difference is 50.0% of the null model's 0.6000"),
      ("`id` encodes time", "Spearman's rank correlation with `launched_at`: 0.9980"),
      ("test rows are copies of training rows", "| 1 | 24 | 9 (37.5%) |"),
      ("the data arrive already standardised", "| goal | 0.000100 | 1.0000 |"),
      ("some folds never train on class `successful`", "folds without `successful` in training: 3"),
    ] {
      #expect(markdown.contains(title), "\(title)")
      #expect(markdown.contains(evidence), "\(evidence)")
    }
    #expect(markdown.contains("median delay 90 min"))
    #expect(markdown.contains("**Found: 2 errors and 4 warnings**"))
    #expect(markdown.contains("`benchbook run` exits with status 3"))
  }
}
