import BenchbookModels
import Foundation
import Testing

/// Benchbook's per-fold log-loss against scikit-learn's on the shipped data, for every registered model.
///
/// The goldens score `log_loss` on the full probability matrix, as Benchbook does (not the
/// `neg_log_loss` scorer, which rebuilds 1 − p from the positive column for two classes).
/// Which golden stands for which model on which case, and to what relative tolerance, the goldens'
/// generator says (`parity` in `Fixtures/sklearn-goldens.json`, explained in `make_goldens.py`); a
/// registered model the goldens do not cover fails. Beside that, the decision tree's seeds: 1e-12
/// against `DecisionTreeClassifier(random_state=N)` for N = 1 and 42, as for 0 (its default): the same
/// seed draws scikit-learn's feature order, so equal-gain ties go the same way and the trees are identical.
@Suite(.serialized) struct ParityTests {
  func run(_ spec: String) throws -> ResultsJSON {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(["run", spec, "--quiet", "--out", scratch.path("out")])
    #expect(output.status == 0, "\(output.stderr)")
    return try ResultsJSON(path: scratch.path("out/results.json"))
  }

  /// The seeded trees besides the default one, on a shipped spec's data, folds and preprocessing;
  /// the audit's costly checks are skipped (the shipped spec's own run audits).
  func seededTrees(_ shipped: String) throws -> ResultsJSON {
    try withModels(
      shipped, "[{DT: {random_state: 1, label: DT-1}}, {DT: {random_state: 42, label: DT-42}}]", name: "seeded-trees")
  }

  func expectFolds(_ actual: [Double], _ expected: [Double], relative tolerance: Double, _ what: String) {
    #expect(actual.count == expected.count, "\(what): fold count")
    for (fold, (a, e)) in zip(actual, expected).enumerated() {
      #expect(abs(a - e) <= tolerance * abs(e), "\(what) fold \(fold): \(a) vs scikit-learn \(e)")
    }
  }

  func expectMean(_ actual: [Double], _ expected: [Double], relative tolerance: Double, _ what: String) {
    let a = actual.reduce(0, +) / Double(actual.count)
    let e = expected.reduce(0, +) / Double(expected.count)
    #expect(abs(a - e) <= tolerance * e, "\(what) mean: \(a) vs scikit-learn \(e)")
  }

  /// A shipped spec's data, folds and preprocessing with other models (`models`, a YAML flow list); the audit's
  /// costly checks are skipped (the shipped spec's own run audits).
  func withModels(_ shipped: String, _ models: String, name: String) throws -> ResultsJSON {
    let scratch = try Scratch()
    var text = try String(contentsOfFile: shipped, encoding: .utf8)
    let data = URL(fileURLWithPath: shipped).deletingLastPathComponent().path + "/data/"
    text = text.replacingOccurrences(of: "path: data/", with: "path: \(data)")
    text = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !$0.hasPrefix("models:") && !$0.hasPrefix("name:")
    }.joined(separator: "\n")
    text = text.components(separatedBy: "\naudit:")[0]
    text += """

      name: \(name)
      models: \(models)
      audit: {skip: [temporal-split, suspect-leak, time-proxy, cross-fold-duplicates]}

      """
    return try run(try scratch.write("\(name).yaml", text))
  }

  /// Every registered model, under its default label, against the golden the case names for it.
  func check(_ results: ResultsJSON, against golden: SklearnGoldens.Case) {
    check([results], against: golden)
  }

  /// `check` with a case's models spread over several runs of the same folds: each model is read from the first
  /// run that has it.
  func check(_ runs: [ResultsJSON], against golden: SklearnGoldens.Case) {
    // The binary holds the built-in models (`ModelsCommandTests`); a model a test target registers brings its own.
    for model in ModelRegistry.builtIn {
      let what = "\(golden.case) \(model.id)"
      guard let parity = golden.parity[model.id] else {
        Issue.record("\(what): the goldens do not cover this model; add it to make_goldens.py")
        continue
      }
      guard let key = parity.golden else {
        #expect(parity.why?.isEmpty == false, "\(what): no golden, and no reason given")
        continue
      }
      let results = runs.first { $0.model(model.defaultLabel) != nil } ?? runs[0]
      let entry = results.model(model.defaultLabel)
      #expect(
        entry?["algorithm"] as? String == model.id, "\(what): the run has no model labelled \(model.defaultLabel)")
      let folds = results.foldLogLoss(model.defaultLabel)
      guard let expected = golden.models[key], let tolerance = parity.relativeTolerance else {
        Issue.record("\(what): golden \(key) or its tolerance is missing")
        continue
      }
      expectFolds(folds, expected, relative: tolerance, what)
      for mean in parity.means ?? [] {
        expectMean(
          folds, golden.models[mean.golden] ?? [], relative: mean.relativeTolerance, "\(what) (\(mean.golden))")
      }
    }
  }

  func checkSeeded(_ results: ResultsJSON, against golden: SklearnGoldens.Case) {
    for seed in [1, 42] {
      expectFolds(
        results.foldLogLoss("DT-\(seed)"), golden.models["DT-random-state-\(seed)"]!, relative: 1e-12,
        "\(golden.case) DT random_state \(seed)")
    }
  }

  /// Every model's `calibration` measures against those of scikit-learn's out-of-fold predictions
  /// (`BenchbookEvaluationTests/Fixtures/make_calibration_goldens.py`), within ten times the model's parity tolerance
  /// (absolute for the binned measures, relative for slope and intercept), and at least 1e-7: the predictions differ
  /// by at most that, and the measures move with them.
  func checkCalibration(_ results: ResultsJSON, against golden: SklearnGoldens.Case) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../BenchbookEvaluationTests/Fixtures/calibration-goldens.json")
    let all = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    let reference = try #require(
      (all["cases"] as! [[String: Any]]).first { $0["case"] as? String == golden.case }, "\(golden.case)")
    let models = reference["models"] as! [String: [String: Any]]
    for model in ModelRegistry.builtIn {
      let what = "\(golden.case) \(model.id) calibration"
      let expected = try #require(models[model.defaultLabel]?["measures"] as? [String: Double], "\(what)")
      let tolerance = max(1e-7, 10 * (golden.parity[model.id]?.relativeTolerance ?? 1e-6))
      let actual = try #require(results.model(model.defaultLabel)?["calibration"] as? [String: Any], "\(what)")
      for (key, value) in expected {
        let got = try #require(actual[key] as? Double, "\(what): no \(key)")
        let scale = ["slope", "intercept"].contains(key) ? max(1, abs(value)) : 1
        #expect(abs(got - value) <= tolerance * scale, "\(what) \(key): \(got) vs scikit-learn's \(value)")
      }
      for key in ["ece", "slope", "intercept", "reliability", "resolution", "uncertainty"] where expected[key] == nil {
        #expect(actual[key] == nil, "\(what): \(key) is for two classes only")
      }
    }
  }

  @Test func breastCancerStratified() throws {
    let results = try run("experiments/breast-cancer.yaml")
    let golden = SklearnGoldens.named("breast-cancer stratified 10-fold standardized")
    check(results, against: golden)
    try checkCalibration(results, against: golden)
    checkSeeded(try seededTrees("experiments/breast-cancer.yaml"), against: golden)
  }

  /// scikit-learn's wine data (13 unscaled measurements, 3 classes), sorted by class as it ships.
  @Test func wineStratified() throws {
    let scratch = try Scratch()
    let columns = (0..<13).map { "x\($0)" }.joined(separator: ", ")
    let fixture = FileManager.default.currentDirectoryPath + "/Tests/BenchbookModelsTests/Fixtures/wine.csv"
    let spec = try scratch.write(
      "wine.yaml",
      """
      name: wine
      data: {path: \(fixture)}
      target: class
      features: [\(columns)]
      preprocess: [standardize]
      resampling: {method: stratified-kfold, folds: 10}
      models: [LR, LDA, KNN, DT, NB, RF, HGB, {DT: {random_state: 1, label: DT-1}}, {DT: {random_state: 42, label: DT-42}}]
      audit: {skip: [suspect-leak, cross-fold-duplicates]}
      """)
    let results = try run(spec)
    let golden = SklearnGoldens.named("wine stratified 10-fold standardized")
    check(results, against: golden)
    try checkCalibration(results, against: golden)
    checkSeeded(results, against: golden)
  }

  @Test func irisStratified() throws {
    let results = try run("experiments/iris.yaml")
    let golden = SklearnGoldens.named("iris stratified 10-fold standardized")
    check(results, against: golden)
    checkSeeded(try seededTrees("experiments/iris.yaml"), against: golden)
  }

  /// scikit-learn's `cross_val_score` raises here: every test fold holds one species.
  @Test func sortedIrisUnderUnshuffledKFoldScores() throws {
    let scratch = try Scratch()
    let spec = try scratch.write(
      "sorted-iris.yaml",
      """
      name: sorted-iris
      data: {path: \(Scratch.shippedData("iris.csv"))}
      target: species
      features: [sepal_length, sepal_width, petal_length, petal_width]
      preprocess: [standardize]
      resampling: {method: kfold, folds: 10}
      models: [LR, LDA, KNN, DT, NB, RF, HGB]
      """)
    let results = try run(spec)
    check(results, against: SklearnGoldens.named("iris sorted unshuffled 10-fold standardized"))
    for model in results.models {
      let mean = (model["log_loss"] as! [String: Double])["mean"]!
      #expect(mean.isFinite)
    }
  }

  /// The reference comparison of semantics.md: 327,346 rows, unshuffled 10-fold.
  @Test func flightsReference() throws {
    let results = try run("experiments/flights-delay.yaml")
    let golden = SklearnGoldens.named("flights unshuffled 10-fold")
    // Boosting is raced in flights-delay-ensembles.yaml, not the flagship; its parity is on the flagship's folds.
    let boosting = try withModels("experiments/flights-delay.yaml", "[HGB]", name: "flights-boosting")
    check([results, boosting], against: golden)
    #expect((results.object["data"] as! [String: Any])["rows"] as? Int == golden.rows)
    checkSeeded(try seededTrees("experiments/flights-delay.yaml"), against: golden)
  }
}
