import BenchbookData
import BenchbookEvaluation
import BenchbookStudy
import Foundation

/// `reports/README.md`: one line per experiment with its question, winner and a link, then one per study.
public enum ReportIndex {
  public static let fileName = "README.md"

  /// Every `*/results.json` one level below `directory`, by experiment name.
  public static func collect(in directory: String) -> [(folder: String, results: ExperimentResults)] {
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    // Hidden folders are not experiments (a run in progress stages its outputs in one).
    return folders.filter { !$0.hasPrefix(".") }.sorted().compactMap { folder in
      let path = URL(fileURLWithPath: directory).appendingPathComponent(folder).appendingPathComponent(
        ResultsFile.fileName
      ).path
      guard FileManager.default.fileExists(atPath: path), let results = try? ResultsFile.read(path) else { return nil }
      return (folder, results)
    }
  }

  /// Every `*/study.json` one level below `directory`, by folder name.
  public static func collectStudies(in directory: String) -> [(folder: String, study: StudyResults)] {
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return folders.filter { !$0.hasPrefix(".") }.sorted().compactMap { folder in
      let path = URL(fileURLWithPath: directory).appendingPathComponent(folder).appendingPathComponent(
        StudyFile.fileName
      ).path
      guard FileManager.default.fileExists(atPath: path), let study = try? StudyFile.read(path) else { return nil }
      return (folder, study)
    }
  }

  /// The studies' table: which model ranks best across each study's datasets, and whether the Friedman test
  /// tells the models apart. Empty when the folder holds no study, so an index of experiments alone is unchanged.
  public static func studiesMarkdown(_ studies: [(folder: String, study: StudyResults)]) -> String {
    guard !studies.isEmpty else { return "" }
    var table = MarkdownTable([
      ("study", .left), ("question", .left), ("datasets", .right), ("best mean rank", .left),
      ("Friedman p", .right), ("critical difference", .right),
    ])
    for (folder, study) in studies {
      let best = study.models.min { (study.meanRanks[$0] ?? 0, $0) < (study.meanRanks[$1] ?? 0, $1) }
      table.append([
        "[\(study.study)](\(folder)/\(StudyReportRenderer.fileName))", study.description ?? "",
        Format.count(study.datasets.count),
        best.map { "\($0), \(String(format: "%.2f", study.meanRanks[$0] ?? 0))" } ?? "–",
        String(format: "%.3g", study.friedman.pValue),
        String(format: "%.2f", study.nemenyi.criticalDifference),
      ])
    }
    return "\n## Studies\n\nEach compares the models across many experiments' datasets (`benchbook study`); "
      + "its experiments' own reports are in its folder.\n\n" + table.markdown
  }

  public static func markdown(_ entries: [(folder: String, results: ExperimentResults)]) -> String {
    var text = "# Benchbook reports\n\n"
    text += "Every experiment in this folder, as last run; `make experiments` re-runs the shipped ones and "
    text += "rewrites this page. A log-loss is only as good as its leak audit: read a flagged report before "
    text += "comparing its score with others.\n\n"
    var table = MarkdownTable([
      ("experiment", .left), ("question", .left), ("best model", .left), ("log-loss", .right), ("leak audit", .left),
      ("rows", .right), ("resampling", .left), ("tuning", .left), ("best inside the budget", .left),
    ])
    for (folder, results) in entries {
      let context = ReportContext(results: results, plots: [])
      let winner = context.winner
      table.append([
        "[\(results.experiment)](\(folder)/\(ReportRenderer.fileName))", results.description ?? "",
        winner.map { "\($0.label), \(AlgorithmName.of($0))" } ?? "–",
        Format.meanStd(winner?.logLoss.mean, winner?.logLoss.std), auditSummary(results.audit),
        Format.count(results.data.rows),
        "\(results.resampling.method), \(results.resampling.splits.count) folds", tuning(results),
        budget(context),
      ])
    }
    return text + table.markdown
  }

  /// Untuned experiments compare defaults; tuned ones say how many models searched and how.
  static func tuning(_ results: ExperimentResults) -> String {
    let tuned = results.models.compactMap(\.tuning)
    guard let inner = tuned.first?.inner else { return "defaults" }
    return "\(tuned.count) of \(results.models.count) models, nested (inner \(inner.method), \(inner.folds) folds)"
  }

  static func budget(_ context: ReportContext) -> String {
    guard let budget = context.results.budget else { return "–" }
    guard let best = BudgetFit.best(context) else { return "none fits (\(BudgetFit.describe(budget)))" }
    return "\(best.model.label), \(String(format: "%.4f", best.score)) (\(BudgetFit.describe(budget)))"
  }

  /// The findings that stand (not accepted), worst first: what a reader must know before trusting the score.
  static func auditSummary(_ audit: AuditRecord?) -> String {
    guard let audit else { return "not run" }
    let standing = audit.findings.filter { !$0.accepted }
    let errors = standing.filter { $0.severity == .error }.count
    let warnings = standing.filter { $0.severity == .warning }.count
    var parts: [String] = []
    if errors > 0 { parts.append("❌ \(errors) error\(errors == 1 ? "" : "s")") }
    if warnings > 0 { parts.append("⚠️ \(warnings) warning\(warnings == 1 ? "" : "s")") }
    return parts.isEmpty ? "clean" : parts.joined(separator: ", ")
  }

  @discardableResult
  public static func write(reportsDirectory: String) throws -> String {
    let path = URL(fileURLWithPath: reportsDirectory).appendingPathComponent(fileName).path
    let text = markdown(collect(in: reportsDirectory)) + studiesMarkdown(collectStudies(in: reportsDirectory))
    try AtomicFile.write(text, to: path)
    return path
  }
}
