import ArgumentParser
import BenchbookData
import Foundation

/// `--shard I/N` (I from 0) or `--shard auto/N`, which takes I from the scheduler running the command:
/// Slurm's `SLURM_ARRAY_TASK_ID`, a Kubernetes indexed job's `JOB_COMPLETION_INDEX`, or GNU parallel's
/// `PARALLEL_SEQ` minus one (it counts from 1). One command line then serves every engine.
struct ShardOption: ExpressibleByArgument, Sendable {
  var index: Int?
  var count: Int

  init?(argument: String) {
    let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let count = Int(parts[1]), count >= 1 else { return nil }
    self.count = count
    if parts[0] == "auto" {
      index = nil
    } else {
      guard let index = Int(parts[0]), index >= 0, index < count else { return nil }
      self.index = index
    }
  }

  /// Refuses more shards than `Limits.shards` before anything is planned: the partition holds a table per shard.
  func validate() throws {
    guard count <= Limits.shards else {
      throw ValidationError(
        "--shard \(index.map(String.init) ?? "auto")/\(count): at most \(Limits.shards) shards (the limit on shards)")
    }
  }

  /// The shard index, reading the scheduler's variable for `auto`.
  func resolvedIndex(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int {
    if let index { return index }
    let sources: [(String, Int)] = [("SLURM_ARRAY_TASK_ID", 0), ("JOB_COMPLETION_INDEX", 0), ("PARALLEL_SEQ", -1)]
    for (name, offset) in sources {
      guard let text = environment[name] else { continue }
      // The range is checked before the offset is added, so no value of the variable can overflow.
      guard let value = Int(text), value >= -offset, value < count - offset else {
        throw CommandError("--shard auto/\(count): \(name)=\(text) does not name a shard in 0..<\(count)")
      }
      return value + offset
    }
    throw CommandError(
      "--shard auto/\(count) needs SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or PARALLEL_SEQ in the environment")
  }
}
