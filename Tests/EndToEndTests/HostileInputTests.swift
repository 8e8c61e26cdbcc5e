import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile input, round 2 (issue 62): failed writes, tampered results and shard files, huge sizes and counts.
/// Each case must end in a located error and a non-zero status, never a trap, a hang or a blow-up.
@Suite struct HostileInputTests {
  /// Long enough for a correct refusal; a regression that hangs is killed (status 9) and fails.
  static let timeout = 120.0

  /// Runs the binary with its standard streams redirected by the shell (`2>/dev/full`), so a write to them fails.
  func runRedirected(_ arguments: [String], redirect: String, in scratch: Scratch) throws -> Int32 {
    let quoted = ([BenchbookBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec \(quoted) \(redirect)"]
    process.currentDirectoryURL = scratch.url
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
    return process.terminationStatus
  }

  @Test func anErrorWhenStandardErrorIsFullExitsOne() throws {
    let scratch = try Scratch()
    let status = try runRedirected(["run", "missing.yaml"], redirect: "2>/dev/full", in: scratch)
    #expect(status == 1)
  }

  @Test func outputThatCannotBeWrittenExitsOne() throws {
    let scratch = try Scratch()
    #expect(try runRedirected(["models"], redirect: ">/dev/full", in: scratch) == 1)
    #expect(try runRedirected(["models"], redirect: ">/dev/full 2>/dev/full", in: scratch) == 1)
  }

  // MARK: Tampered results and shard files

  /// The shipped tuned breast-cancer results, copied into `scratch` with `edit` applied.
  func tamperedResults(_ scratch: Scratch, _ edit: (inout [String: Any]) -> Void) throws -> String {
    let shipped = BenchbookBinary.packageRoot.appendingPathComponent("reports/breast-cancer-tuned/results.json")
    var results = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as? [String: Any])
    edit(&results)
    let path = scratch.path("tampered/results.json")
    try FileManager.default.createDirectory(atPath: scratch.path("tampered"), withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: results).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Edits `results["models"][0]` (LR, tuned) through `edit`.
  static func firstModel(_ edit: @escaping @Sendable (inout [String: Any]) -> Void)
    -> @Sendable (inout [String: Any]) -> Void
  {
    { results in
      var models = results["models"] as! [[String: Any]]
      edit(&models[0])
      results["models"] = models
    }
  }

  /// Edits the first model's tuning record.
  static func tuning(_ edit: @escaping @Sendable (inout [String: Any]) -> Void)
    -> @Sendable (inout [String: Any]) -> Void
  {
    firstModel { model in
      var tuning = model["tuning"] as! [String: Any]
      edit(&tuning)
      model["tuning"] = tuning
    }
  }

  static let tamperings: [String: (key: String, edit: @Sendable (inout [String: Any]) -> Void)] = [
    "huge row count": ("data.rows", { $0["data"] = ($0["data"] as! [String: Any]).merging(["rows": 1 << 62]) { $1 } }),
    "huge fit seconds": (
      "models[0].folds[0].fit_seconds",
      firstModel { model in
        var folds = model["folds"] as! [[String: Any]]
        folds[0]["fit_seconds"] = 1e308
        model["folds"] = folds
      }
    ),
    "huge log-loss": (
      "models[0].log_loss.mean",
      firstModel { model in
        model["log_loss"] = (model["log_loss"] as! [String: Any]).merging(["mean": 1e308]) { $1 }
      }
    ),
    "huge model size": ("models[0].model_size_bytes", firstModel { $0["model_size_bytes"] = 1 << 62 }),
    "chosen configuration out of range": (
      "models[0].tuning.chosen[0].configuration",
      tuning { tuning in
        var chosen = tuning["chosen"] as! [[String: Any]]
        chosen[0]["configuration"] = 99
        tuning["chosen"] = chosen
      }
    ),
    "negative chosen configuration": (
      "models[0].tuning.chosen[0].configuration",
      tuning { tuning in
        var chosen = tuning["chosen"] as! [[String: Any]]
        chosen[0]["configuration"] = -1
        tuning["chosen"] = chosen
      }
    ),
    "final configuration out of range": (
      "models[0].tuning.final_configuration", tuning { $0["final_configuration"] = 7 }
    ),
    "empty configurations": ("models[0].tuning.configurations", tuning { $0["configurations"] = [] as [Any] }),
    "negative budget": (
      "budget.model_size_bytes",
      { $0["budget"] = ($0["budget"] as! [String: Any]).merging(["model_size_bytes": -1]) { $1 } }
    ),
    "huge latency": (
      "models[0].tuning.configurations[0].latency_us.p99",
      tuning { tuning in
        var configurations = tuning["configurations"] as! [[String: Any]]
        configurations[0]["latency_us"] = ["p50": 1.0, "p99": 1e308]
        tuning["configurations"] = configurations
      }
    ),
  ]

  /// `report` on a tampered results.json names the file and the key, exits 1 and writes nothing.
  @Test(arguments: tamperings.keys.sorted())
  func reportRefusesTamperedResults(_ name: String) throws {
    let scratch = try Scratch()
    let tampering = try #require(Self.tamperings[name])
    let path = try tamperedResults(scratch, tampering.edit)
    let output = try BenchbookBinary.run(["report", path], timeout: Self.timeout)
    #expect(output.status == 1, "\(name): \(output.stderr)")
    #expect(output.stderr.contains("\(path): \(tampering.key): "), "\(name): \(output.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("tampered/report.md")), "\(name): nothing written")
  }

  /// A value of the wrong kind reads as a sentence in the file's terms, not Swift's "Expected to decode Int".
  @Test func aWrongKindOfValueIsASentence() throws {
    let scratch = try Scratch()
    let path = try tamperedResults(scratch) {
      $0["data"] = ($0["data"] as! [String: Any]).merging(["rows": [1]]) { $1 }
    }
    let output = try BenchbookBinary.run(["report", path], timeout: Self.timeout)
    #expect(output.status == 1)
    #expect(output.stderr.contains("\(path): data.rows: expected a whole number, found a list"), "\(output.stderr)")
    #expect(!output.stderr.contains("Expected to decode"), "\(output.stderr)")
  }

  /// Three shards of iris, the middle one edited by `edit`, merged: the merge names the shard and the key.
  @Test(arguments: [
    ("calibration cut short", "tasks.[0].fold.calibration.bins.counts: holds 2 bins, not 10"),
    ("points cut short", "tasks[0].fold.calibration.points: has 14 points for the fold's 15 test rows"),
    ("points of two lengths", "tasks.[0].fold.calibration.points.outcomes: holds 14 outcomes for 15 probabilities"),
    ("probability past 1", "tasks.[0].fold.calibration.points.probabilities: holds 2.0, not a probability from 0 to 1"),
    ("huge fit seconds", "tasks[0].fold.fitSeconds: is 1e+308"),
    ("huge clipped rows", "tasks[0].fold.scores.clippedRows: is 4611686018427387904"),
    ("negative shard count", "identity.shards: is -1"),
    ("wrong kind", "tasks.[0].fold.scores.clippedRows: expected a whole number, found a list"),
  ])
  func mergeRefusesTamperedShards(_ name: String, _ message: String) throws {
    let scratch = try Scratch()
    let directory = scratch.path("shards")
    for index in 0..<3 {
      let shard = try BenchbookBinary.run(
        ["run", "experiments/iris.yaml", "--shard", "\(index)/3", "--out", directory, "--quiet"])
      try #require(shard.status == 0, "\(shard.stderr)")
    }
    let path = "\(directory)/shard-1-of-3.json"
    var file = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    var tasks = file["tasks"] as! [[String: Any]]
    var fold = tasks[0]["fold"] as! [String: Any]
    var scores = fold["scores"] as! [String: Any]
    var calibration = fold["calibration"] as! [String: Any]
    var bins = calibration["bins"] as! [String: Any]
    var points = calibration["points"] as! [String: Any]
    var probabilities = points["probabilities"] as! [Double]
    var outcomes = points["outcomes"] as! [Bool]
    switch name {
    case "calibration cut short": bins["counts"] = [1, 2]
    case "points cut short": (probabilities, outcomes) = (Array(probabilities.dropLast()), Array(outcomes.dropLast()))
    case "points of two lengths": outcomes.removeLast()
    case "probability past 1": probabilities[0] = 2
    case "huge fit seconds": fold["fitSeconds"] = 1e308
    case "huge clipped rows": scores["clippedRows"] = 1 << 62
    case "negative shard count": file["identity"] = (file["identity"] as! [String: Any]).merging(["shards": -1]) { $1 }
    default: scores["clippedRows"] = [1]
    }
    (points["probabilities"], points["outcomes"]) = (probabilities, outcomes)
    (calibration["bins"], calibration["points"]) = (bins, points)
    fold["scores"] = scores
    fold["calibration"] = calibration
    tasks[0]["fold"] = fold
    file["tasks"] = tasks
    try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
    let merged = try BenchbookBinary.run(
      ["merge", directory, "--out", scratch.path("out"), "--quiet"], timeout: Self.timeout)
    #expect(merged.status == 1, "\(name): \(merged.stderr)")
    #expect(merged.stderr.contains("\(path): \(message)"), "\(name): \(merged.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("out")), "\(name): nothing written")
  }

  // MARK: Sizes and counts

  /// A sparse file claiming 100 GB is refused by its size: nothing is read whole.
  @Test func sparseFilesAreRefusedBySize() throws {
    let scratch = try Scratch()
    for (name, arguments) in [
      ("big.yaml", ["run", "big.yaml"]), ("results.json", ["report", "results.json"]),
      ("big.mlmodel", ["inspect", "big.mlmodel"]),
    ] {
      try scratch.write(name, "")
      try #require(truncate(scratch.path(name), 100 << 30) == 0)
      let output = try BenchbookBinary.run(arguments, in: scratch.url, timeout: Self.timeout)
      #expect(output.status == 1, "\(name): \(output.stderr)")
      #expect(
        output.stderr.contains("\(name)") && output.stderr.contains("is too large: more than"), "\(output.stderr)")
    }
  }

  /// Huge shard counts are refused as usage errors before anything is planned.
  @Test func hugeShardCountsAreRefused() throws {
    let scratch = try Scratch()
    let plan = try BenchbookBinary.run(
      ["plan", "experiments/iris.yaml", "--shards", "10000000"], timeout: Self.timeout)
    #expect(plan.status == 64, "\(plan.stderr)")
    #expect(plan.stderr.contains("--shards 10000000: at most 10000 shards"), "\(plan.stderr)")
    let run = try BenchbookBinary.run(
      ["run", "experiments/iris.yaml", "--shard", "0/9223372036854775807", "--out", scratch.path("s")],
      timeout: Self.timeout)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("at most 10000 shards"), "\(run.stderr)")
    let auto = try BenchbookBinary.run(
      ["run", "experiments/iris.yaml", "--shard", "auto/2", "--out", scratch.path("s"), "--quiet"],
      environment: ["PARALLEL_SEQ": "-9223372036854775808", "SLURM_ARRAY_TASK_ID": "", "JOB_COMPLETION_INDEX": ""],
      timeout: Self.timeout)
    #expect(auto.status == 1, "\(auto.stderr)")
  }

  /// Spec numbers past their limits are located errors, found before any work.
  @Test(arguments: [
    ("regression: {rounds: 1000000000}\n", "must be at most 1000 (the limit on timing rounds)"),
    (
      "resampling: {method: stratified-kfold, folds: 3, max_fits: 9223372036854775807}\n",
      "must be at most 10000000 (the limit on max_fits)"
    ),
    ("models: [{KNN: {leaf_size: 9223372036854775807}}]\n", "from 1 to 1000000"),
    (
      "models: [{DT: {max_depth: {range: [1, 999], step: 1}, min_samples_leaf: {range: [1, 999], step: 1}}}]\n",
      "holds more than 100000 configurations, the limit on grid size"
    ),
  ])
  func specNumbersPastTheirLimits(_ extra: String, _ message: String) throws {
    let scratch = try Scratch()
    var spec = HardeningTests.spec()
    for key in ["regression:", "resampling:", "models:"] where extra.hasPrefix(key) {
      spec = spec.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(key) }
        .joined(separator: "\n")
    }
    let path = try scratch.write("limits.yaml", spec + extra)
    let output = try BenchbookBinary.run(["run", path, "--out", scratch.path("out"), "--quiet"], timeout: Self.timeout)
    #expect(output.status == 1, "\(output.stderr)")
    #expect(output.stderr.contains("limits.yaml:") && output.stderr.contains(message), "\(output.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("out")))
  }

  /// A gzip bomb, of NULs or of one endless line, ends at the line-length limit with the data file and line,
  /// instead of inflating into memory.
  @Test(arguments: ["head -c 200000000 /dev/zero", "yes a, | tr -d '\\n' | head -c 200000000"])
  func gzipBombsEndAtTheLineLengthLimit(_ source: String) throws {
    let scratch = try Scratch()
    let data = scratch.path("bomb.csv.gz")
    let make = Process()
    make.executableURL = URL(fileURLWithPath: "/bin/sh")
    make.arguments = ["-c", "(printf 'a,y\\n'; \(source)) | gzip -1 > '\(data)'"]
    try make.run()
    make.waitUntilExit()
    try #require(make.terminationStatus == 0)
    let spec = try scratch.write(
      "bomb.yaml",
      "name: bomb\ndata: {path: \(data)}\ntarget: y\nfeatures: [a]\nresampling: {folds: 2}\nmodels: [NB]\n")
    let output = try BenchbookBinary.run(["run", spec, "--out", scratch.path("out"), "--quiet"], timeout: Self.timeout)
    #expect(output.status == 1, "\(output.stderr)")
    #expect(output.stderr.contains("bomb.csv.gz:2"), "\(output.stderr)")
    #expect(output.stderr.contains("the limit on line length"), "\(output.stderr)")
  }
}
