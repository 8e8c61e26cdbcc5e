import BenchbookEvaluation
import BenchbookReport

/// What `run` and `merge` do with a finished run: write results.json and the report, print the tables,
/// and exit 3 when the leak audit leaves an error standing.
enum RunOutput {
  /// - Parameter note: printed before the results path (e.g. how many shards were merged).
  static func write(_ run: ExperimentRunner.Run, to directory: String, quiet: Bool, note: String = "") throws {
    let path = try ResultsFile.write(run.results, to: directory)
    let report = try ReportRenderer.write(run.results, to: directory)
    PlotNotice.print(report.plots)
    if !quiet {
      print(RankedTable.render(run.results), terminator: "")
      print("\(note)results: \(path)")
      print("report: \(report.path)")
    }
    if let audit = run.results.audit {
      if !quiet { print(AuditSummary.render(audit, full: false), terminator: "") }
      try AuditExit.check(audit)
    }
  }
}
