import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation

struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract:
      "Show how `run --shard I/N` would divide an experiment: each shard's cells, estimated cost and peak memory.",
    discussion: """
      A cell is one model on one outer fold (tuning included). Costs are relative estimates, used to \
      balance the shards; the merge step adds the fits on all rows, the leak audit and the on-device \
      measurements.

      The estimated peak memory of each shard, of the merge and of the whole run in one process is computed \
      from the data's size and the folds, the models' working copies and the jobs running at once \
      (docs/memory.md): ask a scheduler for at least that much (the Slurm recipe passes it as --mem). \
      --json prints the same as JSON, `estimated_peak_bytes` being the whole run's.
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "Number of shards.")
  var shards: Int = 1

  @Flag(name: .long, help: "Print the plan as JSON.")
  var json = false

  @OptionGroup var parallel: JobsOption

  func validate() throws {
    guard shards >= 1 else { throw ValidationError("--shards must be at least 1") }
    guard shards <= Limits.shards else {
      throw ValidationError("--shards \(shards): at most \(Limits.shards) shards (the limit on shards)")
    }
  }

  func run() throws {
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.read(file: spec)
      let plan = try RunPlan(experiment, jobs: parallel.jobs)
      let partition = ShardPartition(plan, shards: shards)
      let jobs = parallel.jobs
      let shardPeaks = partition.cells.indices.map {
        plan.memoryEstimate(partition.taskIndices(plan, shard: $0), jobs: jobs, audits: false).peakBytes
      }
      let mergePeak = plan.memoryEstimate(ShardPartition.mergeTaskIndices(plan), jobs: jobs, audits: true).peakBytes
      let whole = plan.memoryEstimate(Array(plan.tasks.indices), jobs: jobs, audits: true)
      let wholePeak = whole.peakBytes
      if json {
        let document = PlanDocument(
          experiment: experiment.name, jobs: jobs, estimatedPeakBytes: wholePeak,
          shards: partition.cells.indices.map { index in
            PlanDocument.Shard(
              shard: index, cells: partition.cells[index].map { "\(experiment.models[$0.model].label)/\($0.fold + 1)" },
              cost: partition.costs[index], estimatedPeakBytes: shardPeaks[index])
          }, largestShardPeakBytes: shardPeaks.max()!, mergePeakBytes: mergePeak)
        let encoded = try JSONCoding.encoder([.prettyPrinted, .sortedKeys]).encode(document)
        print(String(decoding: encoded, as: UTF8.self))
        return
      }
      let total = max(1, partition.costs.reduce(0, +))
      print(
        "\(experiment.name): \(partition.cells.map(\.count).reduce(0, +)) cells in \(shards) shard\(shards == 1 ? "" : "s"), "
          + "\(jobs) job\(jobs == 1 ? "" : "s") each; whole run in one process: est. peak \(Self.megabytes(wholePeak))")
      for (index, cells) in partition.cells.enumerated() {
        let share = Double(partition.costs[index]) / Double(total) * 100
        let names = cells.map { "\(experiment.models[$0.model].label)/fold \($0.fold + 1)" }
        print(
          "shard \(index): \(cells.count) cells, cost \(partition.costs[index]) (\(String(format: "%.1f", share))%), "
            + "est. peak \(Self.megabytes(shardPeaks[index])): " + names.joined(separator: ", "))
      }
      print("merge: fits on all rows, leak audit, on-device cost: est. peak \(Self.megabytes(mergePeak))")
    }
  }

  static func megabytes(_ bytes: Int) -> String { "\((bytes + 500_000) / 1_000_000) MB" }
}
