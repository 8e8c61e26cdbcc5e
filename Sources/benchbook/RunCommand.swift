import ArgumentParser
import BenchbookData
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
      report were written but the leak audit found an error-level finding the spec does not accept; \
      130 or 143 when interrupted (SIGINT, SIGTERM), its temporary files removed.
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "Output directory (default: reports/<name>/).")
  var out: String?

  @OptionGroup var parallel: JobsOption

  @Flag(name: .long, help: "Print no progress and no table.")
  var quiet = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Compute only shard I of N (from 0) into --out DIR as shard-I-of-N.json; `auto/N` reads the scheduler's index.",
      valueName: "I/N"))
  var shard: ShardOption?

  func validate() throws {
    try shard?.validate()
  }

  func run() throws {
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.read(file: spec)
      if let shard {
        try runShard(experiment, shard)
        return
      }
      let destination = out ?? "reports/\(experiment.name)"
      StagedFolder.removeAbandoned(beside: destination)
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
      try RunOutput.write(run, to: destination, quiet: quiet)
      MemoryTrace.mark("write", rows: run.dataset.x.rows)
    }
  }

  /// One shard: its cells only, no audit, no report (the merge step does those).
  func runShard(_ experiment: ExperimentSpec, _ shard: ShardOption) throws {
    guard let out else { throw CommandError("--shard needs --out DIR, the folder every shard writes into") }
    let index = try shard.resolvedIndex()
    let plan = try RunPlan(experiment, jobs: parallel.jobs)
    let partition = ShardPartition(plan, shards: shard.count)
    let progress = quiet ? nil : ProgressLine(title: "\(experiment.name) shard \(index) of \(shard.count)")
    var report: (@Sendable (Int, Int) -> Void)?
    if let progress { report = { done, total in progress.update(done: done, of: total) } }
    let outputs = try plan.execute(partition.taskIndices(plan, shard: index), jobs: parallel.jobs, progress: report)
    progress?.finish()
    let file = ShardFile(
      identity: ShardFile.identity(plan, specPath: spec, shards: shard.count), shard: index, plan: plan,
      outputs: outputs)
    let path = URL(fileURLWithPath: out).appendingPathComponent(ShardFile.fileName(shard: index, of: shard.count)).path
    try AtomicFile.write(try file.encoded(), to: path)
    if !quiet { print("shard \(index) of \(shard.count): \(partition.cells[index].count) cells, \(path)") }
  }
}
