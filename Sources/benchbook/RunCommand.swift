import ArgumentParser
import BenchbookEvaluation
import BenchbookReport
import BenchbookSpec
import Foundation

struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run an experiment: score every model on every fold; write results.json and report.md.",
    discussion: """
      Every run ends with a leak audit (see `benchbook help audit`), kept in results.json and the report.

      Exit status: 0 on success; 1 on any error (bad spec, bad data, a model that cannot be fitted), \
      and nothing is written, an earlier results.json being left as it was; 3 when results and \
      report were written but the leak audit found an error-level finding the spec does not accept.
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "Output directory (default: reports/<name>/).")
  var out: String?

  @OptionGroup var parallel: JobsOption

  @Flag(name: .long, help: "Print no progress and no table.")
  var quiet = false

  func run() throws {
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.parse(file: spec)
      let progress = quiet ? nil : ProgressLine(title: experiment.name)
      let auditProgress = quiet ? nil : ProgressLine(title: "\(experiment.name) leak audit")
      var options = ExperimentRunner.Options(jobs: parallel.jobs)
      if let progress, let auditProgress {
        options.auditProgress = { done, total in
          progress.finish()
          auditProgress.update(done: done, of: total)
        }
      }
      options.command = "benchbook run \(spec)" + (out.map { " --out \($0)" } ?? "")
      if let progress {
        options.progress = { done, total in progress.update(done: done, of: total) }
      }
      let run = try ExperimentRunner.run(experiment, options: options)
      progress?.finish()
      auditProgress?.finish()
      let directory = out ?? "reports/\(experiment.name)"
      let path = try ResultsFile.write(run.results, to: directory)
      let report = try ReportRenderer.write(run.results, to: directory)
      PlotNotice.print(report.plots)
      if !quiet {
        print(RankedTable.render(run.results), terminator: "")
        print("results: \(path)")
        print("report: \(report.path)")
      }
      if let audit = run.results.audit {
        if !quiet { print(AuditSummary.render(audit, full: false), terminator: "") }
        try AuditExit.check(audit)
      }
    }
  }
}
