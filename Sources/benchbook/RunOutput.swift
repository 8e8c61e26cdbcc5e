import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import Foundation

/// What `run` and `merge` do with a finished run: write results.json and the report as a whole (see
/// `ReportPublisher`), print the tables,
/// and exit 3 when the leak audit leaves an error standing.
enum RunOutput {
  /// - Parameter note: printed before the results path (e.g. how many shards were merged).
  static func write(_ run: ExperimentRunner.Run, to directory: String, quiet: Bool, note: String = "") throws {
    // Warnings go to standard error even when quiet: they are about the numbers, not the progress.
    for warning in run.plan.warnings {
      StandardStream.error("benchbook: warning: \(warning)\n")
    }
    let written = try ReportPublisher.publish(run.results, to: directory, includingResults: true)
    PlotNotice.print(written.plots, quiet: quiet)
    if !quiet {
      print(RankedTable.render(run.results), terminator: "")
      print("\(note)results: \(written.resultsPath ?? directory)")
      print("report: \(written.reportPath)")
    }
    if let audit = run.results.audit {
      if !quiet { print(AuditSummary.render(audit, full: false), terminator: "") }
      try AuditExit.check(audit)
    }
  }
}
