import Foundation
import Testing

/// Group resampling through the built binary, against scikit-learn on a panel of 40 aircraft's flights
/// (`Fixtures/groups/make_group_goldens.py`): each method's folds (results.json's plan digest, which covers every
/// fold's test rows), per-fold log-loss under `GroupKFold(5)`, and nested tuning whose inner folds are
/// `GroupKFold(5)` of each training set by its own groups. Then the same spec sharded and merged, at two job
/// counts, and the errors a user meets.
@Suite(.serialized) struct GroupResamplingTests {
  static let fixtures = BenchbookBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/groups")
  static let panel = fixtures.appendingPathComponent("panel.csv").path

  /// The goldens, read afresh by each test (JSON objects are not `Sendable`, so none is kept in a static).
  static var goldens: [String: Any] {
    let data = try! Data(contentsOf: fixtures.appendingPathComponent("group-goldens.json"))
    return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
  }

  func spec(_ resampling: String, models: String = "[NB]", extra: String = "") -> String {
    """
    name: panel
    data: {path: \(Self.panel)}
    target: {column: arr_delay, when: "> 15"}
    features: [sched_dep_time, distance, air_time, hour]
    preprocess: [standardize]
    resampling: \(resampling)
    models: \(models)

    """ + extra
  }

  func run(_ text: String, _ scratch: Scratch, arguments: [String] = []) throws -> ResultsJSON {
    let path = try scratch.write("spec-\(abs(text.hashValue)).yaml", text)
    let output = try BenchbookBinary.run(["run", path, "--quiet", "--out", scratch.path("out")] + arguments)
    try #require(output.status == 0, "\(output.stderr)")
    return try ResultsJSON(path: scratch.path("out/results.json"))
  }

  /// Every method's folds are scikit-learn's, row for row.
  @Test(arguments: [
    ("{method: group-kfold, folds: 5, groups: tailnum}", "group-kfold-5-tailnum"),
    ("{method: group-kfold, folds: 10, groups: tailnum}", "group-kfold-10-tailnum"),
    ("{method: stratified-group-kfold, folds: 5, groups: tailnum}", "stratified-group-kfold-5-tailnum"),
    ("{method: leave-one-group-out, groups: carrier}", "leave-one-group-out-carrier"),
    ("{method: group-holdout, groups: tailnum}", "group-holdout-default-tailnum"),
    ("{method: group-holdout, test_size: 0.3, seed: 7, groups: tailnum}", "group-holdout-0.3-seed-7-tailnum"),
  ])
  func foldsAreScikitLearns(resampling: String, golden: String) throws {
    let scratch = try Scratch()
    let results = try run(spec(resampling), scratch)
    let expected = try #require((Self.goldens["folds"] as? [String: Any])?[golden] as? [String: Any])
    let recorded = try #require(results.object["resampling"] as? [String: Any])
    #expect(recorded["plan_sha256"] as? String == expected["plan_sha256"] as? String, "\(golden)")
    #expect((recorded["splits"] as? [Any])?.count == expected["folds"] as? Int, "\(golden)")
    #expect(recorded["groups"] as? String == (golden.hasSuffix("carrier") ? "carrier" : "tailnum"))
    // Every test fold's size, from the golden's fold of each row.
    let foldOfRow = try #require(expected["fold_of_row"] as? [Int])
    let sizes = (recorded["splits"] as? [[String: Any]] ?? []).map { $0["test_rows"] as? Int ?? -1 }
    let expectedSizes = (0..<(expected["folds"] as? Int ?? 0)).map { fold in foldOfRow.filter { $0 == fold }.count }
    #expect(sizes == expectedSizes, "\(golden)")
  }

  /// Per-fold log-loss under GroupKFold(5): logistic regression within 1e-6 relative, the others within 1e-9.
  @Test func logLossIsScikitLearnsUnderGroupKFold() throws {
    let scratch = try Scratch()
    let results = try run(
      spec("{method: group-kfold, folds: 5, groups: tailnum}", models: "[LR, DT, NB, LDA]"), scratch)
    let goldens = try #require(Self.goldens["log_loss"] as? [String: [Double]])
    for (label, tolerance) in [("LR", 1e-6), ("DT", 1e-9), ("NB", 1e-9), ("LDA", 1e-9)] {
      let actual = results.foldLogLoss(label)
      let expected = try #require(goldens[label])
      #expect(actual.count == expected.count, "\(label)")
      for (fold, (a, e)) in zip(actual, expected).enumerated() {
        #expect(abs(a - e) <= tolerance * abs(e), "\(label) fold \(fold + 1): \(a) vs scikit-learn \(e)")
      }
    }
  }

  /// Nested tuning inside group folds chooses, on every outer fold and on all rows, what
  /// `GridSearchCV(cv=GroupKFold(5)).fit(X, y, groups=g)` chooses.
  @Test func tuningChoosesWhatGridSearchCVChooses() throws {
    let scratch = try Scratch()
    let results = try run(
      spec(
        "{method: group-kfold, folds: 5, groups: tailnum}",
        models: "\n  - LR: {C: [0.01, 1, 100]}\n  - DT: {max_depth: [4, null], min_samples_leaf: [5, 25, 75]}"),
      scratch)
    let goldens = try #require(Self.goldens["tuning"] as? [String: [String: Any]])
    for label in ["LR", "DT"] {
      let golden = try #require(goldens[label])
      let tuning = try #require(results.model(label)?["tuning"] as? [String: Any], "\(label): tuning")
      #expect((tuning["inner"] as? [String: Any])?["method"] as? String == "group-kfold")
      let chosen = (tuning["chosen"] as? [[String: Any]] ?? []).map { $0["configuration"] as? Int ?? -1 }
      let expected = (golden["folds"] as? [[String: Any]] ?? []).map { $0["chosen"] as? Int ?? -2 }
      #expect(chosen == expected, "\(label): chosen \(chosen) vs scikit-learn \(expected)")
      let gridSearch = (golden["folds"] as? [[String: Any]] ?? []).map { $0["gridsearch_chosen"] as? Int ?? -2 }
      #expect(expected == gridSearch, "\(label): the golden's hand-written search is GridSearchCV's")
      let final = (golden["final"] as? [String: Any])?["chosen"] as? Int
      #expect(tuning["final_configuration"] as? Int == final, "\(label): final configuration")
      // The chosen configuration's inner mean, to the parity tolerances.
      let means = (golden["folds"] as? [[String: Any]] ?? []).map { $0["inner_means"] as? [Double] ?? [] }
      for (fold, (choice, inner)) in zip(tuning["chosen"] as? [[String: Any]] ?? [], means).enumerated() {
        guard let index = choice["configuration"] as? Int, inner.indices.contains(index),
          let actual = choice["inner_log_loss"] as? Double
        else { continue }
        let tolerance = label == "LR" ? 1e-6 : 1e-9
        #expect(abs(actual - inner[index]) <= tolerance * inner[index], "\(label) fold \(fold + 1) inner \(actual)")
      }
    }
  }

  /// Stratified group folds inside stratified group folds choose what
  /// `GridSearchCV(cv=StratifiedGroupKFold(5)).fit(X, y, groups=g)` chooses.
  @Test func stratifiedGroupTuningChoosesWhatGridSearchCVChooses() throws {
    let scratch = try Scratch()
    let results = try run(
      spec(
        "{method: stratified-group-kfold, folds: 5, groups: tailnum}",
        models: "\n  - DT: {max_depth: [4, null], min_samples_leaf: [5, 25, 75]}",
        extra: "tune:\n  inner: {method: stratified-group-kfold, folds: 5}\n"),
      scratch)
    let golden = try #require((Self.goldens["tuning_stratified"] as? [String: [String: Any]])?["DT"])
    let tuning = try #require(results.model("DT")?["tuning"] as? [String: Any], "DT: tuning")
    #expect((tuning["inner"] as? [String: Any])?["method"] as? String == "stratified-group-kfold")
    let chosen = (tuning["chosen"] as? [[String: Any]] ?? []).map { $0["configuration"] as? Int ?? -1 }
    let expected = (golden["folds"] as? [[String: Any]] ?? []).map { $0["chosen"] as? Int ?? -2 }
    let gridSearch = (golden["folds"] as? [[String: Any]] ?? []).map { $0["gridsearch_chosen"] as? Int ?? -2 }
    #expect(chosen == expected, "chosen \(chosen) vs scikit-learn \(expected)")
    #expect(expected == gridSearch, "the golden's hand-written search is GridSearchCV's")
    #expect(tuning["final_configuration"] as? Int == (golden["final"] as? [String: Any])?["chosen"] as? Int)
  }

  /// Shards merge to the plain run, and two jobs give the one job's bytes (timings aside).
  @Test func groupFoldsShardMergeAndRunAtAnyJobs() throws {
    let scratch = try Scratch()
    let text = spec(
      "{method: stratified-group-kfold, folds: 4, groups: tailnum}",
      models: "\n  - LR\n  - DT: {max_depth: [3, null]}\n  - NB")
    let path = try scratch.write("panel.yaml", text)
    func comparable(_ file: String) throws -> String {
      var object =
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as! [String: Any]
      // The command names each run's own --jobs and --out.
      object["environment"] = nil
      object["command"] = nil
      return try ResultsJSON.withoutTimings(
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }
    let one = try BenchbookBinary.run(["run", path, "--quiet", "--jobs", "1", "--out", scratch.path("one")])
    try #require(one.status == 0, "\(one.stderr)")
    let two = try BenchbookBinary.run(["run", path, "--quiet", "--jobs", "2", "--out", scratch.path("two")])
    try #require(two.status == 0, "\(two.stderr)")
    let expected = try comparable(scratch.path("one/results.json"))
    #expect(try comparable(scratch.path("two/results.json")) == expected)
    for index in 0..<3 {
      let shard = try BenchbookBinary.run(
        ["run", path, "--shard", "\(index)/3", "--out", scratch.path("shards"), "--quiet"])
      try #require(shard.status == 0, "\(shard.stderr)")
    }
    let merged = try BenchbookBinary.run(["merge", scratch.path("shards"), "--out", scratch.path("merged"), "--quiet"])
    try #require(merged.status == 0, "\(merged.stderr)")
    #expect(try comparable(scratch.path("merged/results.json")) == expected)
    let report = try String(contentsOfFile: scratch.path("one/report.md"), encoding: .utf8)
    #expect(report.contains("4-fold stratified group k-fold by `tailnum`"), "the report's method sentence")
  }

  /// The gate passes a grouped run against its own baseline, and finds another groups column not comparable (the
  /// definition names the column, and the folds differ).
  @Test func theGateComparesGroupedRuns() throws {
    let scratch = try Scratch()
    let path = try scratch.write(
      "panel.yaml", spec("{method: group-kfold, folds: 4, groups: tailnum}", models: "[NB, LDA]"))
    let baseline = try BenchbookBinary.run(["baseline", path, "--out", scratch.path("base.json"), "--jobs", "1"])
    try #require(baseline.status == 0, "\(baseline.stderr)")
    let same = try BenchbookBinary.run(
      ["check", path, "--baseline", scratch.path("base.json"), "--out", scratch.path("check"), "--jobs", "1"])
    #expect(same.status == 0, "\(same.stderr)")
    #expect((same.stdout + same.stderr).contains(", 0 failed"), "\(same.stdout)\(same.stderr)")
    #expect(!(same.stdout + same.stderr).contains("not comparable"), "\(same.stdout)\(same.stderr)")
    let other = try scratch.write(
      "other.yaml", spec("{method: group-kfold, folds: 4, groups: carrier}", models: "[NB, LDA]"))
    let changed = try BenchbookBinary.run(
      ["check", other, "--baseline", scratch.path("base.json"), "--out", scratch.path("check2"), "--jobs", "1"])
    #expect(
      (changed.stdout + changed.stderr).contains("not comparable: NB model"), "\(changed.stdout)\(changed.stderr)")
  }

  @Test func aMissingGroupIsLocatedInTheData() throws {
    let scratch = try Scratch()
    let lines = try String(contentsOfFile: Self.panel, encoding: .utf8).split(separator: "\n").prefix(30)
    var edited = Array(lines.map(String.init))
    // Row 11 of the data (line 12) loses its tail number.
    var fields = edited[11].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    fields[1] = ""
    edited[11] = fields.joined(separator: ",")
    let data = try scratch.write("holes.csv", edited.joined(separator: "\n") + "\n")
    let path = try scratch.write(
      "holes.yaml",
      spec("{method: group-kfold, folds: 2, groups: tailnum}").replacingOccurrences(of: Self.panel, with: data))
    let output = try BenchbookBinary.run(["run", path, "--quiet", "--out", scratch.path("out")])
    #expect(output.status != 0)
    #expect(output.stderr.contains("holes.csv:12"), "\(output.stderr)")
    #expect(output.stderr.contains("resampling.groups"), "\(output.stderr)")
  }

  @Test func timeSeriesWithGroupsIsRefusedAtTheKey() throws {
    let scratch = try Scratch()
    let path = try scratch.write(
      "ts.yaml",
      spec("\n  method: time-series\n  groups: tailnum").replacingOccurrences(
        of: "preprocess:", with: "time: hour\npreprocess:"))
    let output = try BenchbookBinary.run(["run", path, "--quiet", "--out", scratch.path("out")])
    #expect(output.status != 0)
    #expect(output.stderr.contains("ts.yaml:9"), "\(output.stderr)")
    #expect(output.stderr.contains("cannot also keep groups apart"), "\(output.stderr)")
  }
}
