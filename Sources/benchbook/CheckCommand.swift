import ArgumentParser
import BenchbookEvaluation
import BenchbookReport
import BenchbookSpec
import Foundation

struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Measure an experiment again and compare it with its baseline: the regression gate for CI.",
    discussion: """
      Writes regression.md (and appends to $GITHUB_STEP_SUMMARY when set) and history.jsonl into the \
      output folder, whatever the outcome.
      Exit status: 0 pass (warnings and improvements included); 1 Benchbook error (bad spec, I/O); \
      2 regression; 4 baseline missing or incomparable, with --require-baseline (without it, a notice and 0).
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "The baseline to compare with (default: baselines/<name>.json beside the spec).")
  var baseline: String?

  @Option(name: .long, help: "Where to write regression.md and history.jsonl (default: reports/<name>/).")
  var out: String?

  @OptionGroup var parallel: JobsOption

  @Flag(name: .long, help: "Exit 4 when there is no baseline, or nothing in it can be compared.")
  var requireBaseline = false

  func run() throws {
    var status: Int32 = 0
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.parse(file: spec)
      let baselinePath = baseline ?? BaselineLocation.defaultPath(for: experiment)
      let directory = out ?? "reports/\(experiment.name)"
      var command = "benchbook check \(spec)"
      if let baseline { command += " --baseline \(baseline)" }
      let (outcome, run) = try RegressionCheck.check(
        experiment, baselinePath: baselinePath, options: .init(jobs: parallel.jobs), command: command)
      let historyPath = (directory.hasSuffix("/") ? directory : directory + "/") + RegressionHistory.fileName
      if let run, outcome.current != nil {
        try RegressionHistory.append(
          RegressionHistory.entry(outcome, commit: run.results.environment.gitCommit), to: historyPath)
      }
      let path = try RegressionReport.write(outcome, history: RegressionHistory.read(historyPath), to: directory)
      print(RegressionReport.headline(outcome))
      for row in outcome.rows where [.fail, .warn, .improved, .notComparable].contains(row.verdict) {
        print("  \(row.verdict.rawValue): \(row.model) \(row.metric.rawValue)" + (row.note.map { " (\($0))" } ?? ""))
      }
      print("report: \(path)")
      if outcome.failed > 0 {
        status = 2
      } else if outcome.incomparable && requireBaseline {
        status = 4
      }
    }
    if status != 0 { throw ExitCode(status) }
  }
}
