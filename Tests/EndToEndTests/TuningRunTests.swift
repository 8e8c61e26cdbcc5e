import Foundation
import Testing

/// Tuned specs end to end: determinism across job counts, the budget's choices, and the regression
/// gate holding a tuned model's choices.
@Suite struct TuningRunTests {
  static let untimed = "regression: {time_ratio: {warn: 1000, fail: 1000, fail_regardless: 1000}}\n"

  func tunedIris(_ scratch: Scratch, budget: Int = 3000, extra: String = "") throws -> String {
    try scratch.write(
      "iris-tuned.yaml",
      """
      name: iris-tuned
      data: {path: \(Scratch.shippedData("iris.csv"))}
      target: species
      features: [sepal_length, sepal_width, petal_length, petal_width]
      preprocess: [standardize]
      resampling: {method: stratified-kfold, folds: 5}
      models:
        - LR: {C: {log_range: [0.01, 100], points: 3}}
        - KNN: {k: [3, 9], weights: [uniform, distance]}
        - DT: {max_depth: [2, null]}
        - NB: {var_smoothing: [1.0e-9, 1.0e-3]}
      tune: {inner: {folds: 3}}
      budget: {model_size_bytes: \(budget)}

      """ + extra)
  }

  func run(_ spec: String, _ scratch: Scratch, out: String, jobs: Int? = nil) throws -> ResultsJSON {
    let output = try BenchbookBinary.run(
      ["run", spec, "--quiet", "--out", scratch.path(out)] + (jobs.map { ["--jobs", "\($0)"] } ?? []))
    #expect(output.status == 0, "\(output.stderr)")
    return try ResultsJSON(path: scratch.path("\(out)/results.json"))
  }

  @Test func sameMetricsWhateverTheJobs() throws {
    let scratch = try Scratch()
    let spec = try tunedIris(scratch)
    // One output folder for both, so the recorded command is the same too.
    _ = try run(spec, scratch, out: "out", jobs: 1)
    let one = try String(contentsOfFile: scratch.path("out/results.json"), encoding: .utf8)
    _ = try run(spec, scratch, out: "out", jobs: 2)
    let two = try String(contentsOfFile: scratch.path("out/results.json"), encoding: .utf8)
    #expect(try ResultsJSON.withoutTimings(one) == ResultsJSON.withoutTimings(two))
  }

  /// Every kNN file holds the training rows (over 3 kB here), so kNN has no configuration inside
  /// the budget: it says so, and keeps its unconstrained nested score.
  @Test func budgetChoosesInsideAndSaysWhenNothingFits() throws {
    let scratch = try Scratch()
    let results = try run(try tunedIris(scratch), scratch, out: "out")
    let budget = try #require(results.object["budget"] as? [String: Any])
    #expect(budget["model_size_bytes"] as? Int == 3000)
    let knn = try #require(results.model("KNN"))
    #expect(knn["within_budget"] as? Bool == false)
    let knnTuning = try #require(knn["tuning"] as? [String: Any])
    #expect(knnTuning["budget_log_loss"] == nil)
    let knnChoices = try #require(knnTuning["chosen_within_budget"] as? [[String: Any]])
    #expect(knnChoices.count == 5 && knnChoices.allSatisfy { $0["configuration"] == nil })
    let configurations = try #require(knnTuning["configurations"] as? [[String: Any]])
    #expect(configurations.allSatisfy { $0["within_budget"] as? Bool == false })
    let nb = try #require(results.model("NB"))
    #expect(nb["within_budget"] as? Bool == true)
    // A tuning spec records each model's reliability diagram: 150 rows × 3 classes, one-vs-rest, in ten bins.
    let calibration = try #require(nb["calibration"] as? [String: Any])
    let bins = try #require(calibration["bins"] as? [[String: Any]])
    #expect(bins.count == 10)
    #expect(bins.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 450)
    let nbTuning = try #require(nb["tuning"] as? [String: Any])
    let nbBudget = try #require(nbTuning["budget_log_loss"] as? [String: Any])
    // Nothing in NB's grid is over budget, so the budget's choice is the unconstrained one.
    let nested = try #require(nb["log_loss"] as? [String: Any])
    #expect(nbBudget["mean"] as? Double == nested["mean"] as? Double)
  }

  /// The shipped configuration and every outer fold's choice are part of what must not change.
  @Test func checkHoldsTheChoices() throws {
    let scratch = try Scratch()
    let spec = try tunedIris(scratch, extra: Self.untimed)
    let baseline = scratch.path("baseline.json")
    let made = try BenchbookBinary.run(["baseline", spec, "--out", baseline])
    #expect(made.status == 0, "\(made.stderr)")
    let passed = try BenchbookBinary.run(["check", spec, "--baseline", baseline, "--out", scratch.path("pass")])
    #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")

    var object =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as! [String: Any]
    var models = object["models"] as! [[String: Any]]
    let index = models.firstIndex { $0["label"] as? String == "LR" }!
    var tuning = try #require(models[index]["tuning"] as? [String: Any])
    let final = try #require(tuning["final_configuration"] as? Int)
    tuning["final_configuration"] = (final + 1) % 3
    models[index]["tuning"] = tuning
    object["models"] = models
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(
      to: URL(fileURLWithPath: baseline))
    let failed = try BenchbookBinary.run(["check", spec, "--baseline", baseline, "--out", scratch.path("fail")])
    #expect(failed.status == 2, "\(failed.stdout)\(failed.stderr)")
    let report = try String(contentsOfFile: scratch.path("fail/regression.md"), encoding: .utf8)
    #expect(report.contains("chosen configuration"))
    #expect(report.contains("shipped configuration changed"))
  }

  /// `export` ships the configuration `run` chose on all rows: the same file, to the byte count, as results record.
  @Test func exportShipsTheFinalConfiguration() throws {
    let scratch = try Scratch()
    let spec = try tunedIris(scratch)
    let results = try run(spec, scratch, out: "out")
    for label in ["KNN", "DT"] {
      let model = try #require(results.model(label))
      let file = scratch.path("\(label).mlmodel")
      let exported = try BenchbookBinary.run([
        "export", spec, "--model", label, "--out", file, "--results", scratch.path("out/results.json"),
      ])
      #expect(exported.status == 0, "\(exported.stderr)")
      let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int
      #expect(size == model["model_size_bytes"] as? Int, "\(label)")
    }
    let knn = try #require(results.model("KNN")?["tuning"] as? [String: Any])
    let final = try #require(knn["final_params"] as? [String: Any])
    let inspected = try BenchbookBinary.run(["inspect", scratch.path("KNN.mlmodel")])
    #expect(inspected.stdout.contains("k = \(final["n_neighbors"] as! Int)"), "\(inspected.stdout)")
  }
}
