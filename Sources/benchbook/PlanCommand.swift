import ArgumentParser
import BenchbookEvaluation
import BenchbookSpec
import Foundation

struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Show how `run --shard I/N` would divide an experiment: each shard's cells and estimated cost.",
    discussion: """
      A cell is one model on one outer fold (tuning included). Costs are relative estimates, used to \
      balance the shards; the merge step adds the fits on all rows, the leak audit and the on-device \
      measurements.
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "Number of shards.")
  var shards: Int

  func validate() throws {
    guard shards >= 1 else { throw ValidationError("--shards must be at least 1") }
  }

  func run() throws {
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.read(file: spec)
      let plan = try RunPlan(experiment)
      let partition = ShardPartition(plan, shards: shards)
      let total = max(1, partition.costs.reduce(0, +))
      print("\(experiment.name): \(partition.cells.map(\.count).reduce(0, +)) cells in \(shards) shards")
      for (index, cells) in partition.cells.enumerated() {
        let share = Double(partition.costs[index]) / Double(total) * 100
        let names = cells.map { "\(experiment.models[$0.model].label)/fold \($0.fold + 1)" }
        print(
          "shard \(index): \(cells.count) cells, cost \(partition.costs[index]) (\(String(format: "%.1f", share))%): "
            + names.joined(separator: ", "))
      }
    }
  }
}
