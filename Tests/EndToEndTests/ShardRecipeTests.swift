import Foundation
import Testing
import Yams

/// The shipped recipes for running shards on an existing engine.
@Suite struct ShardRecipeTests {
  static let root = BenchbookBinary.packageRoot.path
  static let hasParallel = FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel")

  func shell(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = BenchbookBinary.packageRoot
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// `make experiment-sharded`'s script: three processes under GNU parallel give the plain run's results.
  @Test(.enabled(if: hasParallel, "GNU parallel is not installed (make deps installs it)"))
  func gnuParallelRecipeEqualsThePlainRun() throws {
    let scratch = try Scratch()
    let plain = try BenchbookBinary.run(["run", "experiments/iris.yaml", "--out", scratch.path("out"), "--quiet"])
    #expect(plain.status == 0, "\(plain.stderr)")
    let expected = try ResultsJSON.withoutTimings(
      String(contentsOfFile: scratch.path("out/results.json"), encoding: .utf8))
    let sharded = try shell([
      "bash", "experiments/recipes/parallel/sharded.sh", BenchbookBinary.path, "experiments/iris.yaml", "3",
      scratch.path("out"),
    ])
    #expect(sharded.status == 0, "\(sharded.output)")
    let merged = try ResultsJSON.withoutTimings(
      String(contentsOfFile: scratch.path("out/results.json"), encoding: .utf8))
    #expect(merged == expected)
  }

  /// The Slurm scripts parse, and each array task's index reaches benchbook as SLURM_ARRAY_TASK_ID
  /// (`--shard auto/N`, tested in ShardingTests).
  @Test func slurmScriptsParseAndShardByArrayIndex() throws {
    for script in ["submit.sh", "submit-study.sh", "memory.sh", "benchbook-array.sbatch", "benchbook-merge.sbatch"] {
      let checked = try shell(["bash", "-n", "experiments/recipes/slurm/\(script)"])
      #expect(checked.status == 0, "\(script): \(checked.output)")
    }
    let array = try String(
      contentsOfFile: "\(Self.root)/experiments/recipes/slurm/benchbook-array.sbatch", encoding: .utf8)
    #expect(array.contains("--shard \"auto/$SHARDS\""))
    let submit = try String(contentsOfFile: "\(Self.root)/experiments/recipes/slurm/submit.sh", encoding: .utf8)
    #expect(submit.contains("--array=\"0-$((shards - 1))\""))
    #expect(submit.contains("--dependency=\"afterok:"))
    // The array script run by hand as task 1 of 2 writes shard 1.
    let scratch = try Scratch()
    let ran = try shell(
      ["bash", "experiments/recipes/slurm/benchbook-array.sbatch"],
      environment: [
        "SPEC": "experiments/iris.yaml", "SHARDS": "2", "SHARD_DIR": scratch.path("shards"),
        "SLURM_ARRAY_TASK_ID": "1", "BENCHBOOK": BenchbookBinary.path,
      ])
    #expect(ran.status == 0, "\(ran.output)")
    #expect(scratch.exists("shards/shard-1-of-2.json"))
  }

  /// The Slurm recipe asks for `benchbook plan --json`'s estimated peaks plus 25%: the largest shard's for the array,
  /// the merge's for the merge job, in whole megabytes rounded up.
  @Test func slurmMemoryIsThePlansEstimate() throws {
    let planned = try BenchbookBinary.run(["plan", "experiments/iris.yaml", "--shards", "3", "--jobs", "1", "--json"])
    #expect(planned.status == 0, "\(planned.stderr)")
    let plan = try #require(try JSONSerialization.jsonObject(with: Data(planned.stdout.utf8)) as? [String: Any])
    let shards = try #require(plan["shards"] as? [[String: Any]])
    let shardPeaks = shards.compactMap { $0["estimated_peak_bytes"] as? Int }
    #expect(shardPeaks.count == 3)
    let largest = try #require(plan["largest_shard_peak_bytes"] as? Int)
    let merge = try #require(plan["merge_peak_bytes"] as? Int)
    #expect(largest == shardPeaks.max())
    let asked = try shell([
      "bash", "experiments/recipes/slurm/memory.sh", BenchbookBinary.path, "experiments/iris.yaml", "3", "1",
    ])
    #expect(asked.status == 0, "\(asked.output)")
    func megabytes(_ bytes: Int) -> Int { (bytes * 5 / 4 + 999_999) / 1_000_000 }
    #expect(asked.output == "\(megabytes(largest)) \(megabytes(merge))\n")
  }

  /// The plan's first line counts its shards and jobs in words that agree with the numbers ("1 shard, 1 job").
  @Test func planCountsInTheSingular() throws {
    let one = try BenchbookBinary.run(["plan", "experiments/iris.yaml", "--shards", "1", "--jobs", "1"])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.contains(" in 1 shard, 1 job each;"), "\(one.stdout)")
    let two = try BenchbookBinary.run(["plan", "experiments/iris.yaml", "--shards", "2", "--jobs", "2"])
    #expect(two.stdout.contains(" in 2 shards, 2 jobs each;"), "\(two.stdout)")
  }

  /// The study recipe for GNU parallel: three processes over a study's cells, merged, give the single run's
  /// study.json byte for byte; the Slurm array script, given STUDY, runs a study's shard.
  @Test(.enabled(if: hasParallel, "GNU parallel is not installed (make deps installs it)"))
  func studyRecipesShardAStudy() throws {
    let scratch = try Scratch()
    let study = try StudyCommandTests.makeStudy(scratch)
    let out = scratch.path("out")
    let plain = try BenchbookBinary.run(["study", study, "--out", out, "--quiet"])
    #expect(plain.status == 0, "\(plain.stderr)")
    let expected = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/study.json")))
    try FileManager.default.removeItem(atPath: out)
    let sharded = try shell([
      "bash", "experiments/recipes/parallel/sharded-study.sh", BenchbookBinary.path, study, "3", out,
    ])
    #expect(sharded.status == 0, "\(sharded.output)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/study.json"))) == expected)
    let ran = try shell(
      ["bash", "experiments/recipes/slurm/benchbook-array.sbatch"],
      environment: [
        "STUDY": study, "OUT": out, "SHARDS": "2", "SHARD_DIR": scratch.path("slurm"), "SLURM_ARRAY_TASK_ID": "1",
        "BENCHBOOK": BenchbookBinary.path,
      ])
    #expect(ran.status == 0, "\(ran.output)")
    #expect(scratch.exists("slurm/study-shard-1-of-2.json"), "every experiment is up to date in OUT: none computed")
    #expect(!scratch.exists("slurm/alpha"))
  }

  /// The GitHub Actions examples are valid YAML with a shard matrix that covers 0..SHARDS-1 and a merge job after it.
  @Test(arguments: ["sharded.yml", "sharded-study.yml"])
  func githubActionsMatrixIsWellFormed(file: String) throws {
    let text = try String(
      contentsOfFile: "\(Self.root)/experiments/recipes/github-actions/\(file)", encoding: .utf8)
    let workflow = try #require(try Yams.load(yaml: text) as? [String: Any])
    let jobs = try #require(workflow["jobs"] as? [String: Any])
    let shard = try #require(jobs["shard"] as? [String: Any])
    let strategy = try #require(shard["strategy"] as? [String: Any])
    let matrix = try #require((strategy["matrix"] as? [String: Any])?["shard"] as? [Int])
    let shards = try #require((workflow["env"] as? [String: Any])?["SHARDS"] as? Int)
    #expect(matrix == Array(0..<shards))
    let merge = try #require(jobs["merge"] as? [String: Any])
    #expect(merge["needs"] as? String == "shard")
    let steps = try #require(merge["steps"] as? [[String: Any]])
    #expect(steps.contains { ($0["run"] as? String)?.contains("benchbook merge") == true })
  }
}
