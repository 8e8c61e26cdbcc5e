import Foundation
import Testing

/// `run --shard I/N` and `merge`: the merged results are a plain run's, byte for byte but for timings and
/// environment, whatever the number of shards; shards that do not belong together are refused, nothing written.
@Suite(.serialized) struct ShardingTests {
  /// results.json without timings or environment, for comparison.
  func comparable(_ path: String) throws -> String {
    var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    object["environment"] = nil
    return try ResultsJSON.withoutTimings(
      String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
  }

  func shardAndMerge(_ spec: String, shards: Int, _ scratch: Scratch, out: String) throws {
    let directory = scratch.path("shards-\(shards)")
    for index in 0..<shards {
      let shard = try BenchbookBinary.run(["run", spec, "--shard", "\(index)/\(shards)", "--out", directory, "--quiet"])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    let merged = try BenchbookBinary.run(["merge", directory, "--out", out, "--quiet"])
    #expect(merged.status == 0, "\(merged.stderr)")
  }

  func expectMergedEqualsPlain(_ spec: String, shardCounts: [Int]) throws {
    let scratch = try Scratch()
    let out = scratch.path("out")
    let plain = try BenchbookBinary.run(["run", spec, "--out", out, "--quiet"])
    #expect(plain.status == 0, "\(plain.stderr)")
    let expected = try comparable(scratch.path("out/results.json"))
    for count in shardCounts {
      try shardAndMerge(spec, shards: count, scratch, out: out)
      #expect(try comparable(scratch.path("out/results.json")) == expected, "\(count) shards")
    }
  }

  @Test func flagshipMergesToThePlainRun() throws {
    try expectMergedEqualsPlain("experiments/flights-delay.yaml", shardCounts: [1, 2, 3, 7])
  }

  @Test func tunedSpecMergesToThePlainRun() throws {
    try expectMergedEqualsPlain("experiments/breast-cancer-tuned.yaml", shardCounts: [2, 3])
  }

  /// `auto/N` takes the index from GNU parallel (counting from 1) or Slurm (from 0).
  @Test func autoReadsTheSchedulersIndex() throws {
    let scratch = try Scratch()
    let directory = scratch.path("shards")
    let parallel = try BenchbookBinary.run(
      ["run", "experiments/iris.yaml", "--shard", "auto/2", "--out", directory, "--quiet"],
      environment: ["PARALLEL_SEQ": "2"])
    #expect(parallel.status == 0, "\(parallel.stderr)")
    #expect(scratch.exists("shards/shard-1-of-2.json"))
    let slurm = try BenchbookBinary.run(
      ["run", "experiments/iris.yaml", "--shard", "auto/2", "--out", directory, "--quiet"],
      environment: ["SLURM_ARRAY_TASK_ID": "0"])
    #expect(slurm.status == 0, "\(slurm.stderr)")
    #expect(scratch.exists("shards/shard-0-of-2.json"))
    let outside = try BenchbookBinary.run(
      ["run", "experiments/iris.yaml", "--shard", "auto/2", "--out", directory, "--quiet"],
      environment: ["SLURM_ARRAY_TASK_ID": "5"])
    #expect(outside.status == 1)
    #expect(outside.stderr.contains("SLURM_ARRAY_TASK_ID=5"))
  }

  /// Three shards of iris in a scratch folder, to break.
  func irisShards(_ scratch: Scratch, spec: String = "experiments/iris.yaml", into name: String = "shards") throws
    -> String
  {
    let directory = scratch.path(name)
    for index in 0..<3 {
      let shard = try BenchbookBinary.run(["run", spec, "--shard", "\(index)/3", "--out", directory, "--quiet"])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    return directory
  }

  func expectRefused(_ directories: [String], _ scratch: Scratch, mentioning text: String) throws {
    let merged = try BenchbookBinary.run(["merge"] + directories + ["--out", scratch.path("out"), "--quiet"])
    #expect(merged.status == 1, "\(merged.stdout)")
    #expect(merged.stderr.contains(text), "\(merged.stderr)")
    #expect(!scratch.exists("out"), "nothing is written")
  }

  @Test func missingShardIsRefused() throws {
    let scratch = try Scratch()
    let directory = try irisShards(scratch)
    try FileManager.default.removeItem(atPath: "\(directory)/shard-1-of-3.json")
    try expectRefused([directory], scratch, mentioning: "missing shard 1 of 3")
  }

  @Test func duplicatedShardIsRefused() throws {
    let scratch = try Scratch()
    let directory = try irisShards(scratch)
    let copy = scratch.path("copy")
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: "\(directory)/shard-2-of-3.json", toPath: "\(copy)/shard-2-of-3.json")
    try expectRefused([directory, copy], scratch, mentioning: "repeats shard 2")
  }

  @Test func shardOfAnotherSpecIsRefused() throws {
    let scratch = try Scratch()
    let iris = try irisShards(scratch)
    let cancer = try irisShards(scratch, spec: "experiments/breast-cancer.yaml", into: "cancer")
    try FileManager.default.removeItem(atPath: "\(iris)/shard-0-of-3.json")
    try FileManager.default.copyItem(atPath: "\(cancer)/shard-0-of-3.json", toPath: "\(iris)/shard-0-of-3.json")
    try expectRefused([iris], scratch, mentioning: "does not belong with")
  }

  @Test func shardOfAnotherDataFileIsRefused() throws {
    let scratch = try Scratch()
    let directory = try irisShards(scratch)
    try editShard("\(directory)/shard-1-of-3.json") { identity in identity["data"] = String(repeating: "0", count: 64) }
    try expectRefused([directory], scratch, mentioning: "the data file")
  }

  @Test func shardOfAnotherBenchbookIsRefused() throws {
    let scratch = try Scratch()
    let directory = try irisShards(scratch)
    try editShard("\(directory)/shard-2-of-3.json") { identity in identity["benchbook"] = "0.0.9" }
    try expectRefused([directory], scratch, mentioning: "Benchbook")
  }

  func editShard(_ path: String, _ edit: (inout [String: Any]) -> Void) throws {
    var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    var identity = object["identity"] as! [String: Any]
    edit(&identity)
    object["identity"] = identity
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
  }
}
