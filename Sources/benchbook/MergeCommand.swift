import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import BenchbookSpec
import BenchbookStudy
import Foundation

struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the shards of `benchbook run --shard` into results.json and report.md.",
    discussion: """
      Reads every shard-I-of-N.json in the folders given, checks that they come from the same Benchbook, \
      spec, data and folds and cover every cell once, then fits each model on all rows (and makes a tuned \
      model's final choice), runs the leak audit and the on-device measurements, and writes the results and \
      the report. They equal a single `benchbook run` of the spec with the same --out, timings and \
      environment aside. The spec is read from the path the shards were run with, relative to here.

      Folders holding a study's shards (`benchbook study --shard`: study-shard-I-of-N.json beside one folder \
      per experiment) finish the study: each experiment is merged into DIR/<experiment>/ (or, when the shards \
      found it up to date, read from there), then study.json and study.md are written to DIR (default: \
      reports/<study name>/).

      Exit status: 0 on success; 1 when shards are missing, repeated or from another spec, data or \
      Benchbook, and nothing is written; 3 as for `run`.
      """
  )

  @Argument(help: "Folders holding the shard files.")
  var directories: [String]

  @Option(name: .long, help: "Output directory (default: reports/<name>/).")
  var out: String?

  @OptionGroup var parallel: JobsOption

  @Flag(name: .long, help: "Print no progress and no table.")
  var quiet = false

  func run() throws {
    try CommandLineFailure.reporting {
      let studyShards = try StudyShardFile.read(directories)
      if !studyShards.isEmpty {
        try StudyMerge.run(studyShards, directories: directories, out: out, jobs: parallel.jobs, quiet: quiet)
        return
      }
      let shards = try ShardMerge.read(directories)
      try ShardMerge.checkAgreement(shards)
      let specPath = shards[0].file.identity.spec
      let experiment = try SpecParser.read(file: specPath)
      let destination = out ?? "reports/\(experiment.name)"
      StagedFolder.removeAbandoned(beside: destination)
      let plan = try RunPlan(experiment, jobs: parallel.jobs)
      let outputs = try ShardMerge.outputs(plan, shards: shards, jobs: parallel.jobs, progress: nil)
      var options = ExperimentRunner.Options(jobs: parallel.jobs)
      // The command that reproduces these results on one machine.
      options.command = "benchbook run \(specPath)" + (out.map { " --out \($0)" } ?? "")
      let run = try ExperimentRunner.assemble(plan, outputs: outputs, options: options)
      try RunOutput.write(run, to: destination, quiet: quiet, note: "merged \(shards.count) shards; ")
    }
  }
}
