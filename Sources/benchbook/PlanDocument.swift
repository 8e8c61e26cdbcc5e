import BenchbookEvaluation

/// `benchbook plan --json`: what the Slurm recipe and `make bench` read (keys in snake_case).
struct PlanDocument: Encodable {
  struct Shard: Encodable {
    var shard: Int
    var cells: [String]
    var cost: Int
    var estimatedPeakBytes: Int
  }
  var experiment: String
  var jobs: Int
  /// The whole run in one process (`benchbook run`).
  var estimatedPeakBytes: Int
  var shards: [Shard]
  /// The largest shard's estimate and the merge's: what the Slurm recipe asks for (`--mem`).
  var largestShardPeakBytes: Int
  var mergePeakBytes: Int
}
