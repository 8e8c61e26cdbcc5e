import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import BenchbookSpec
import Foundation

struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Measure an experiment again and compare it: the regression gate for CI.",
    discussion: """
      Compares with the committed baseline (default), or, with --against REV or --against-binary PATH, \
      with another build of Benchbook measured side by side on this machine: scores and sizes judged \
      as against a baseline, times as paired ratios over interleaved single-threaded rounds.

      Writes regression.md (and appends to $GITHUB_STEP_SUMMARY when set) and history.jsonl into the \
      output folder, whatever the outcome.

      Exit status: 0 pass (warnings and improvements included); 1 Benchbook error (bad spec, I/O, a \
      revision that does not exist or does not build, a baseline that exists but cannot be read or is of \
      another experiment, a step summary that cannot be written); 2 regression; 4 baseline missing or \
      incomparable, with --require-baseline or when $CI is set (otherwise a notice and 0).
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "The baseline to compare with (default: baselines/<name>.json beside the spec).")
  var baseline: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Compare with the benchbook of this git revision, built once per commit under .build/benchbook-against/.",
      valueName: "REV"))
  var against: String?

  @Option(
    name: .customLong("against-binary"),
    help: ArgumentHelp("Compare with this already built benchbook binary.", valueName: "PATH"))
  var againstBinary: String?

  @Option(name: .long, help: "Where to write regression.md and history.jsonl (default: reports/<name>/).")
  var out: String?

  @OptionGroup var parallel: JobsOption

  @Flag(name: .long, help: "Exit 4 when there is no baseline, or nothing in it can be compared.")
  var requireBaseline = false

  func validate() throws {
    if against != nil && againstBinary != nil {
      throw ValidationError("--against and --against-binary name the base twice; give one")
    }
    if (against != nil || againstBinary != nil) && baseline != nil {
      throw ValidationError("--baseline compares with a file, --against with a build; give one")
    }
  }

  func run() throws {
    var status: Int32 = 0
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.read(file: spec)
      // A summary that cannot be appended to (a FIFO, a device) is refused before anything is measured.
      if let summary = RegressionReport.stepSummaryPath() { try AppendFile.checkAppendable(summary) }
      let directory = out ?? "reports/\(experiment.name)"
      let outcome: RegressionCheck.Outcome
      let commit: String
      if against != nil || againstBinary != nil {
        outcome = try sideBySide(experiment)
        commit = outcome.sideBySide?.head.commit ?? "unknown"
      } else {
        let baselinePath = baseline ?? BaselineLocation.defaultPath(for: experiment)
        var command = "benchbook check \(spec)"
        if let baseline { command += " --baseline \(baseline)" }
        let (checked, run) = try RegressionCheck.check(
          experiment, baselinePath: baselinePath, options: .init(jobs: parallel.jobs), command: command)
        outcome = checked
        commit = run.map(\.results.environment.gitCommit) ?? "unknown"
      }
      let historyPath = (directory.hasSuffix("/") ? directory : directory + "/") + RegressionHistory.fileName
      if outcome.current != nil {
        try RegressionHistory.append(RegressionHistory.entry(outcome, commit: commit), to: historyPath)
      }
      let path: String
      var summaryFailure: RegressionReport.StepSummaryFailure?
      do {
        path = try RegressionReport.write(outcome, history: RegressionHistory.read(historyPath), to: directory)
      } catch let failure as RegressionReport.StepSummaryFailure {
        summaryFailure = failure
        path = failure.reportPath
      }
      print(RegressionReport.headline(outcome))
      for row in outcome.rows where [.fail, .warn, .improved, .notComparable].contains(row.verdict) {
        var line = "  \(row.verdict.rawValue): \(row.model) \(row.metric.rawValue)"
        if let factor = row.factor { line += String(format: " %.2f×", factor) }
        print(line + (row.note.map { " (\($0))" } ?? ""))
      }
      print("report: \(path)")
      let ci = GateEnvironment.isCI()
      if outcome.failed > 0 {
        status = 2
      } else if outcome.incomparable && (requireBaseline || ci) {
        if ci && !requireBaseline {
          StandardStream.error("benchbook: $CI is set, so a check that compared nothing fails (exit 4)\n")
        }
        status = 4
      }
      if let summaryFailure {
        StandardStream.error("benchbook: error: \(summaryFailure)\n")
        if status == 0 { status = 1 }
      }
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// Base and head measured side by side on this machine.
  private func sideBySide(_ experiment: ExperimentSpec) throws -> RegressionCheck.Outcome {
    let environment = ProcessInfo.processInfo.environment
    let base: SideBySideCheck.Side
    if let against {
      let built = try RevisionBuild.binary(for: against) { message in
        StandardStream.error("benchbook: \(message)\n")
      }
      base = SideBySideCheck.Side(
        binary: built.binary, name: "\(against) (\(built.commit.prefix(12)))", commit: built.commit,
        environment: environment)
    } else {
      let path = againstBinary!
      let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
      guard FileManager.default.isExecutableFile(atPath: absolute) else {
        throw CommandError("--against-binary \(path): not an executable file")
      }
      base = SideBySideCheck.Side(binary: absolute, name: path, commit: nil, environment: environment)
    }
    let specDirectory = URL(fileURLWithPath: experiment.path).deletingLastPathComponent().path
    let headCommit = EnvironmentProbe.gitCommit(in: specDirectory)
    let head = SideBySideCheck.Side(
      binary: InstructionCount.thisBinary,
      name: "this benchbook" + (headCommit.map { " (working tree at \($0.prefix(12)))" } ?? ""), commit: headCommit,
      environment: environment)
    return try SideBySideCheck.check(experiment, base: base, head: head, jobs: parallel.jobs)
  }
}

/// Whether the check runs in continuous integration, where a gate that compared nothing must not pass.
enum GateEnvironment {
  /// `$CI` set to anything but empty, `0`, `false` or `no` (GitHub Actions, GitLab and most others set `true`).
  static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    guard let value = environment["CI"]?.lowercased() else { return false }
    return !["", "0", "false", "no"].contains(value)
  }
}
