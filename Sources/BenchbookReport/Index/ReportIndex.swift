import BenchbookData
import BenchbookEvaluation
import Foundation

/// `reports/README.md`: one line per experiment with its question, winner and a link.
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
    try AtomicFile.write(markdown(collect(in: reportsDirectory)), to: path)
    return path
  }
}
