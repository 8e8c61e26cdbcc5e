import Foundation
import Testing

/// `benchbook study`: a study of three tiny datasets runs its experiments, writes study.json (the contract's keys)
/// and study.md, reuses up-to-date experiments, equals itself when sharded three ways and merged, and refuses bad
/// input with a located error before writing anything.
@Suite(.serialized) struct StudyCommandTests {
  /// Rows of two numeric features whose class follows them loosely; `twins` repeats the whole block, so every row
  /// has a copy in another fold (a leak the audit flags as an error).
  static func csv(rows: Int, classes: Int, seed: Int, twins: Bool = false) -> String {
    var text = ""
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    for row in 0..<rows {
      let label = row % classes
      let x1 = Double(label) * 0.8 + next() * 1.6
      let x2 = next() * 2 - Double(label) * 0.3
      text += "\(String(format: "%.4f", x1)),\(String(format: "%.4f", x2)),c\(label)\n"
    }
    return "x1,x2,label\n" + (twins ? text + text : text)
  }

  static func spec(_ name: String, data: String, models: String = "[LR, NB, DT]") -> String {
    """
    name: \(name)
    description: Which class is row of \(name)?
    data:
      path: \(data)
    target: label
    features: [x1, x2]
    preprocess: [standardize]
    resampling:
      method: stratified-kfold
      folds: 3
    models: \(models)

    """
  }

  /// A study of `alpha`, `beta` and `gamma` (the last two by a glob), tiny enough for a debug build.
  static func makeStudy(_ scratch: Scratch, extra: String = "") throws -> String {
    try scratch.write("data/alpha.csv", csv(rows: 60, classes: 2, seed: 1))
    try scratch.write("data/beta.csv", csv(rows: 75, classes: 3, seed: 2))
    try scratch.write("data/gamma.csv", csv(rows: 66, classes: 2, seed: 3))
    try scratch.write("alpha.yaml", spec("alpha", data: "data/alpha.csv"))
    try scratch.write("more/gamma.yaml", spec("gamma", data: "../data/gamma.csv"))
    try scratch.write("more/beta.yaml", spec("beta", data: "../data/beta.csv"))
    return try scratch.write(
      "tiny.yaml",
      """
      name: tiny
      description: Which of three models is the better default on tiny data?
      experiments: [alpha.yaml, more/*.yaml]
      rope: 0.01
      \(extra)
      """)
  }

  func json(_ path: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
  }

  @Test func studyWritesItsContractAndReport() throws {
    let scratch = try Scratch()
    let study = try Self.makeStudy(scratch)
    let run = try BenchbookBinary.run(["study", study, "--out", scratch.path("out"), "--quiet", "--jobs", "2"])
    #expect(run.status == 0, "\(run.stderr)")
    let object = try json(scratch.path("out/study.json"))
    let contract: Set<String> = [
      "datasets", "models", "scores", "ranks", "mean_ranks", "friedman", "nemenyi", "pairs", "environment",
    ]
    #expect(contract.isSubset(of: Set(object.keys)), "\(object.keys.sorted())")
    #expect(object["datasets"] as? [String] == ["alpha", "beta", "gamma"], "spec order, the glob's matches sorted")
    #expect(object["models"] as? [String] == ["LR", "NB", "DT"])
    let friedman = try #require(object["friedman"] as? [String: Any])
    #expect(
      Set(friedman.keys) == ["statistic", "p_value", "iman_davenport_statistic", "iman_davenport_p_value"])
    let nemenyi = try #require(object["nemenyi"] as? [String: Any])
    #expect(Set(["critical_difference", "alpha"]).isSubset(of: Set(nemenyi.keys)))
    let pairs = try #require(object["pairs"] as? [[String: Any]])
    #expect(pairs.count == 3)
    for pair in pairs {
      let keys: Set<String> = [
        "a", "b", "wins", "ties", "losses", "wilcoxon_p_value", "wilcoxon_p_value_holm", "bayes",
      ]
      #expect(keys.isSubset(of: Set(pair.keys)))
      let bayes = try #require(pair["bayes"] as? [String: Double])
      #expect(Set(bayes.keys) == ["p_a_better", "p_equivalent", "p_b_better"])
      #expect(abs(bayes.values.reduce(0, +) - 1) < 1e-12)
      #expect((pair["wins"] as! Int) + (pair["ties"] as! Int) + (pair["losses"] as! Int) == 3)
    }
    // Ranks: 1 for the lowest score on each dataset, and their means.
    let scores = try #require(object["scores"] as? [String: [String: Double]])
    let ranks = try #require(object["ranks"] as? [String: [String: Double]])
    for dataset in ["alpha", "beta", "gamma"] {
      let best = scores[dataset]!.min { $0.value < $1.value }!.key
      #expect(ranks[dataset]![best] == 1)
    }
    let means = try #require(object["mean_ranks"] as? [String: Double])
    #expect(abs(means["LR"]! - (ranks["alpha"]!["LR"]! + ranks["beta"]!["LR"]! + ranks["gamma"]!["LR"]!) / 3) < 1e-12)
    // Every experiment's own report, and the study's.
    for dataset in ["alpha", "beta", "gamma"] {
      #expect(scratch.exists("out/\(dataset)/results.json") && scratch.exists("out/\(dataset)/report.md"))
    }
    let report = try String(contentsOfFile: scratch.path("out/study.md"), encoding: .utf8)
    #expect(report.hasPrefix("# Study: tiny\n"))
    #expect(report.contains("](alpha/report.md)"))
    #expect(report.contains("## Critical-difference diagram"))
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/gnuplot") {
      #expect(scratch.exists("out/critical-difference.svg") && scratch.exists("out/scores.svg"))
    }
  }

  /// `report` re-renders study.md and its plots from study.json alone, to the bytes `study` wrote, and leaves
  /// study.json as it was; `index` lists the study beside the experiments.
  @Test func reportReRendersAStudyAndIndexListsIt() throws {
    let scratch = try Scratch()
    let study = try Self.makeStudy(scratch)
    let run = try BenchbookBinary.run(["study", study, "--out", scratch.path("out/tiny"), "--quiet", "--jobs", "2"])
    #expect(run.status == 0, "\(run.stderr)")
    let written = try String(contentsOfFile: scratch.path("out/tiny/study.md"), encoding: .utf8)
    let json = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/tiny/study.json")))
    let again = try BenchbookBinary.run(["report", scratch.path("out/tiny/study.json"), "--out", scratch.path("again")])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try String(contentsOfFile: scratch.path("again/study.md"), encoding: .utf8) == written)
    #expect(!scratch.exists("again/study.json"), "re-rendering writes the report, not the study")
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/gnuplot") {
      #expect(scratch.exists("again/critical-difference.svg"))
    }
    let inPlace = try BenchbookBinary.run(["report", scratch.path("out/tiny/study.json")])
    #expect(inPlace.status == 0, "\(inPlace.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/tiny/study.json"))) == json)

    let index = try BenchbookBinary.run(["index", scratch.path("out")])
    #expect(index.status == 0, "\(index.stderr)")
    let page = try String(contentsOfFile: scratch.path("out/README.md"), encoding: .utf8)
    #expect(page.contains("## Studies"))
    let row = try #require(page.split(separator: "\n").first { $0.contains("[tiny](tiny/study.md)") })
    #expect(row.contains("Which of three models is the better default on tiny data?"))
    #expect(row.contains("| 3 |"), "three datasets: \(row)")
  }

  @Test func upToDateExperimentsAreReusedAndChangedOnesRunAgain() throws {
    let scratch = try Scratch()
    let study = try Self.makeStudy(scratch)
    let first = try BenchbookBinary.run(["study", study, "--out", scratch.path("out"), "--jobs", "2"])
    #expect(first.status == 0, "\(first.stderr)")
    let alpha = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/alpha/results.json")))
    let studyBytes = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/study.json")))
    // A changed spec (its description) runs again; the other two are reused as they are.
    try scratch.write("more/beta.yaml", Self.spec("beta", data: "../data/beta.csv") + "# edited\n")
    let second = try BenchbookBinary.run(["study", study, "--out", scratch.path("out"), "--jobs", "2"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.contains("alpha (1 of 3): up to date, reused"))
    #expect(second.stderr.contains("gamma (3 of 3): up to date, reused"))
    #expect(!second.stderr.contains("beta (2 of 3): up to date"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/alpha/results.json"))) == alpha)
    // The statistics are a function of the scores, which did not change.
    var before = try JSONSerialization.jsonObject(with: studyBytes) as! [String: Any]
    var after = try json(scratch.path("out/study.json"))
    for key in ["experiments", "environment"] {
      before[key] = nil
      after[key] = nil
    }
    #expect(NSDictionary(dictionary: before) == NSDictionary(dictionary: after))
  }

  /// Three shards over the study's cells, merged, give the single run's study.json byte for byte (the same --out
  /// and --jobs, so even the command and environment agree), and each experiment's results but for timings.
  @Test func threeShardsMergeToTheSingleRunsBytes() throws {
    let scratch = try Scratch()
    let study = try Self.makeStudy(scratch)
    let out = scratch.path("out")
    let single = try BenchbookBinary.run(["study", study, "--out", out, "--quiet", "--jobs", "2"])
    #expect(single.status == 0, "\(single.stderr)")
    let expected = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/study.json")))
    let expectedResults = try ["alpha", "beta", "gamma"].map {
      try ResultsJSON.withoutTimings(String(contentsOfFile: scratch.path("out/\($0)/results.json"), encoding: .utf8))
    }
    try FileManager.default.removeItem(atPath: out)
    for index in 0..<3 {
      let shard = try BenchbookBinary.run([
        "study", study, "--shard", "\(index)/3", "--out", scratch.path("shards"), "--reuse", out, "--quiet",
        "--jobs", "1",
      ])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    #expect(scratch.exists("shards/study-shard-2-of-3.json") && scratch.exists("shards/beta/shard-1-of-3.json"))
    #expect(!FileManager.default.fileExists(atPath: out), "shards write nothing into the study's folder")
    let merged = try BenchbookBinary.run(["merge", scratch.path("shards"), "--out", out, "--quiet", "--jobs", "2"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/study.json"))) == expected)
    for (dataset, results) in zip(["alpha", "beta", "gamma"], expectedResults) {
      let mergedResults = try ResultsJSON.withoutTimings(
        String(contentsOfFile: scratch.path("out/\(dataset)/results.json"), encoding: .utf8))
      #expect(mergedResults == results, "\(dataset)")
    }
  }

  /// A shard missing, or one from another split, is refused before anything is written.
  @Test func incompleteShardsAreRefused() throws {
    let scratch = try Scratch()
    let study = try Self.makeStudy(scratch)
    for index in [0, 2] {
      let shard = try BenchbookBinary.run([
        "study", study, "--shard", "\(index)/3", "--out", scratch.path("shards"), "--reuse", scratch.path("none"),
        "--quiet", "--jobs", "1",
      ])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    let merged = try BenchbookBinary.run(["merge", scratch.path("shards"), "--out", scratch.path("out"), "--quiet"])
    #expect(merged.status == 1)
    #expect(merged.stderr.contains("missing study shard 1 of 3"), "\(merged.stderr)")
    #expect(!scratch.exists("out"))
  }

  @Test func anUnacceptedLeakIsNamedInTheFirstParagraphAndExitsThree() throws {
    let scratch = try Scratch()
    try scratch.write("data/twins.csv", Self.csv(rows: 60, classes: 2, seed: 9, twins: true))
    try scratch.write("twins.yaml", Self.spec("twins", data: "data/twins.csv"))
    _ = try Self.makeStudy(scratch)
    try scratch.write("leaky.yaml", "name: leaky\nexperiments: [alpha.yaml, twins.yaml, more/*.yaml]\n")
    let run = try BenchbookBinary.run(["study", scratch.path("leaky.yaml"), "--out", scratch.path("out"), "--quiet"])
    #expect(run.status == 3, "\(run.stderr)")
    #expect(run.stderr.contains("twins (cross-fold-duplicates [rows])"), "\(run.stderr)")
    let report = try String(contentsOfFile: scratch.path("out/study.md"), encoding: .utf8)
    let firstParagraphs = report.components(separatedBy: "\n## ")[0]
    #expect(firstParagraphs.contains("The leak audit left an error standing in [twins](twins/report.md)"))
    #expect(report.contains("**cross-fold-duplicates [rows]**"))
  }

  /// Each bad study is an error naming the file, the line and what is wrong, exit status 1, and no folder.
  @Test(arguments: [
    ("experiments: []\nname: empty\n", "empty.yaml:1", "lists no experiments"),
    ("name: single\nexperiments: [alpha.yaml]\n", "single.yaml:2", "a study needs at least two"),
    (
      "name: metric\nexperiments: [alpha.yaml, more/*.yaml]\nmetric: accuracy\n", "metric.yaml:3",
      "'accuracy' is not a metric a study can compare"
    ),
    (
      "name: differ\nexperiments: [alpha.yaml, odd.yaml]\n", "differ.yaml:2",
      "has no model labelled 'NB', which"
    ),
    (
      "name: filter\nexperiments: [alpha.yaml, odd.yaml]\nmodels: [LR, NB]\n", "filter.yaml:3",
      "has no model labelled 'NB' (its models: LR, DT, KNN)"
    ),
    ("name: uses-broken\nexperiments: [alpha.yaml, broken.yaml]\n", "broken.yaml:4", "unknown key 'targt'"),
    ("name: typo\nexperimnts: [alpha.yaml]\n", "typo.yaml:2", "unknown key 'experimnts'"),
    ("name: nothing\nexperiments: [alpha.yaml, none/*.yaml]\n", "nothing.yaml:2", "matches no file"),
    ("name: [unclosed\n", "unclosed.yaml:", "not valid YAML"),
  ])
  func badStudiesAreLocatedErrorsAndWriteNothing(text: String, location: String, message: String) throws {
    let scratch = try Scratch()
    _ = try Self.makeStudy(scratch)
    try scratch.write("odd.yaml", Self.spec("odd", data: "data/alpha.csv", models: "[LR, DT, KNN]"))
    try scratch.write(
      "broken.yaml", "name: broken\ndata:\n  path: data/alpha.csv\ntargt: label\nfeatures: [x1]\n")
    // The study file is named by the location, except where the error is in the experiment it lists.
    let file = location.hasPrefix("broken.yaml") ? "uses-broken.yaml" : location.components(separatedBy: ":")[0]
    try scratch.write(file, text)
    let run = try BenchbookBinary.run(["study", scratch.path(file), "--out", scratch.path("out")])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stderr.contains(location), "\(run.stderr)")
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(!scratch.exists("out"), "nothing is written")
  }
}
