import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import BenchbookStudy
import Foundation

struct StudyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "study",
    abstract: "Compare models across datasets: run a study's experiments, then rank and test the models.",
    discussion: """
      A study file names experiment specs (one per dataset, globs allowed), the metric (log_loss), the rope and \
      alpha. Each experiment's results and report go to DIR/<experiment>/; an experiment whose results there are \
      up to date (the same Benchbook version, spec, spec definition and data hashes) is reused, not run. Then \
      study.json and study.md (average ranks, Friedman and Iman-Davenport tests, the Nemenyi critical-difference \
      diagram, Wilcoxon signed-rank with Holm's adjustment, Bayesian signed-rank with the rope) go to DIR.

      With --shard I/N, only shard I of the (experiment, model, fold) cells of the experiments not up to date in \
      --reuse DIR is computed, into --out as <experiment>/shard-I-of-N.json and study-shard-I-of-N.json; \
      `benchbook merge` on the shard folders finishes the study.

      Exit status: 0 on success; 1 on any error (a bad study or experiment spec, model labels that differ, fewer \
      than two datasets, a metric other than log_loss: then nothing is written); 3 when everything was written \
      but some experiment's leak audit found an error-level finding its spec does not accept.
      """
  )

  @Argument(help: "The study file (YAML).")
  var spec: String

  @Option(name: .long, help: "Output directory (default: reports/<name>/); with --shard, the folder shards write into.")
  var out: String?

  @OptionGroup var parallel: JobsOption

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Compute only shard I of N (from 0) of the study's cells into --out DIR; `auto/N` reads the scheduler's index.",
      valueName: "I/N"))
  var shard: ShardOption?

  func validate() throws {
    try shard?.validate()
  }

  @Option(
    name: .long,
    help: ArgumentHelp(
      "With --shard: the study folder whose up-to-date experiments the shards skip (default: reports/<name>/).",
      valueName: "DIR"))
  var reuse: String?

  @Flag(name: .long, help: "Run every experiment, even those whose results are up to date.")
  var rerun = false

  @Flag(name: .long, help: "Print no progress and no table.")
  var quiet = false

  func run() throws {
    try CommandLineFailure.reporting {
      let study = try StudySpecParser.parse(file: spec)
      if let shard {
        try runShard(study, shard)
        return
      }
      guard reuse == nil else { throw CommandError("--reuse goes with --shard; without it, --out is the study folder") }
      let destination = out ?? "reports/\(study.name)"
      StagedFolder.removeAbandoned(beside: destination)
      var results: [ExperimentResults] = []
      for (index, experiment) in study.experiments.enumerated() {
        let folder = ExperimentFreshness.folder(experiment, in: destination)
        let position = "\(index + 1) of \(study.experiments.count)"
        if !rerun,
          case .success(let fresh) = ExperimentFreshness.check(experiment, in: destination, models: study.models)
        {
          if !quiet { StudyOutput.note("\(experiment.spec.name) (\(position)): up to date, reused") }
          results.append(fresh)
          continue
        }
        let progress = quiet ? nil : ProgressLine(title: "\(experiment.spec.name) (\(position))")
        let auditProgress = quiet ? nil : ProgressLine(title: "\(experiment.spec.name) (\(position)) leak audit")
        var options = ExperimentRunner.Options(jobs: parallel.jobs)
        options.command = StudyOutput.experimentCommand(experiment, folder: folder)
        if let progress, let auditProgress {
          options.progress = { done, total in progress.update(done: done, of: total) }
          options.auditProgress = { done, total in
            progress.finish()
            auditProgress.update(done: done, of: total)
          }
        }
        let run = try ExperimentRunner.run(experiment.spec, options: options)
        progress?.finish()
        auditProgress?.finish()
        try StudyOutput.publish(run.results, to: folder, quiet: quiet)
        results.append(run.results)
      }
      try StudyOutput.finish(
        study, results: results, destination: destination, command: StudyOutput.studyCommand(spec, out: out),
        jobs: parallel.jobs, quiet: quiet)
    }
  }

  /// One shard: its cells of every experiment that is not up to date, and the study's marker; no audit, no report.
  func runShard(_ study: StudySpec, _ shard: ShardOption) throws {
    guard let out else { throw CommandError("--shard needs --out DIR, the folder every shard writes into") }
    let index = try shard.resolvedIndex()
    let reuseFolder = reuse ?? "reports/\(study.name)"
    var computed: [Int] = []
    var reused: [String] = []
    for (i, experiment) in study.experiments.enumerated() {
      if !rerun, case .success = ExperimentFreshness.check(experiment, in: reuseFolder, models: study.models) {
        reused.append(experiment.spec.name)
      } else {
        computed.append(i)
      }
    }
    // Every shard reads every computed experiment's folds to share the cells out alike; each then reads again
    // only the experiments it has cells of, so one dataset at a time is held.
    var costs: [StudyPartition.Cell: Int] = [:]
    for i in computed {
      costs.merge(StudyPartition.cellCosts(try RunPlan(study.experiments[i].spec, jobs: parallel.jobs), experiment: i))
      { a, _ in a }
    }
    let partition = StudyPartition(costs: costs, shards: shard.count)
    for i in computed {
      let experiment = study.experiments[i]
      let plan = try RunPlan(experiment.spec, jobs: parallel.jobs)
      let indices = partition.taskIndices(plan, experiment: i, shard: index)
      let progress = quiet || indices.isEmpty ? nil : ProgressLine(title: "\(experiment.spec.name) shard \(index)")
      var report: (@Sendable (Int, Int) -> Void)?
      if let progress { report = { done, total in progress.update(done: done, of: total) } }
      let outputs = indices.isEmpty ? [:] : try plan.execute(indices, jobs: parallel.jobs, progress: report)
      progress?.finish()
      let file = ShardFile(
        identity: ShardFile.identity(plan, specPath: experiment.path, shards: shard.count), shard: index, plan: plan,
        outputs: outputs)
      let folder = URL(fileURLWithPath: out).appendingPathComponent(experiment.spec.name)
      try AtomicFile.write(
        try file.encoded(), to: folder.appendingPathComponent(ShardFile.fileName(shard: index, of: shard.count)).path)
    }
    let marker = StudyShardFile(
      benchbook: EnvironmentProbe.benchbookVersion, study: study.path,
      studySha256: SHA256.hexDigest(try DataFile.storedBytes(atPath: study.path)), shards: shard.count, shard: index,
      computed: computed.map { study.experiments[$0].spec.name }, reused: reused)
    let path = URL(fileURLWithPath: out).appendingPathComponent(StudyShardFile.fileName(shard: index, of: shard.count))
      .path
    try AtomicFile.write(try marker.encoded(), to: path)
    if !quiet {
      print(
        "study shard \(index) of \(shard.count): \(partition.cells[index].count) cells of \(computed.count) "
          + "experiments (\(reused.count) up to date), \(path)")
    }
  }
}
