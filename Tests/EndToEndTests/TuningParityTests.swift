import Foundation
import Testing

/// Benchbook's nested cross-validation against scikit-learn's
/// `cross_validate(GridSearchCV(..., cv=StratifiedKFold(5), scoring="neg_log_loss"), cv=StratifiedKFold(10))`,
/// written out fold by fold in `Fixtures/make_tuning_goldens.py`.
///
/// For every model every outer fold must choose scikit-learn's configuration, and every number on
/// the way (inner mean of the chosen configuration, each configuration's flat fold score, the nested
/// fold score) must agree to the tolerances of `ParityTests`: relative 1e-6 (kNN brute force,
/// Gaussian NB, LDA), 1e-4 for logistic regression, 1e-12 for the decision tree, whose default
/// seed grows `DecisionTreeClassifier(random_state=0)`'s trees.
@Suite(.serialized) struct TuningParityTests {
  func run(_ spec: String) throws -> ResultsJSON {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(["run", spec, "--quiet", "--out", scratch.path("out")])
    #expect(output.status == 0, "\(output.stderr)")
    return try ResultsJSON(path: scratch.path("out/results.json"))
  }

  func close(_ actual: Double, _ expected: Double, _ tolerance: Double) -> Bool {
    abs(actual - expected) <= tolerance * abs(expected)
  }

  func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

  func describe(_ params: [String: TuningGoldens.Value]) -> String {
    params.keys.sorted().map { "\($0)=\(params[$0]!)" }.joined(separator: ", ")
  }

  /// Whether every searched setting of the golden configuration has the same value in `params`
  /// (which may hold more: Benchbook records fixed settings and defaults too).
  func holds(_ params: [String: Any]?, _ golden: [String: TuningGoldens.Value]) -> Bool {
    guard let params else { return false }
    return golden.allSatisfy { name, value in value.matches(params[name]) }
  }

  /// Everything a tuned model records, against scikit-learn's numbers for the same folds.
  func checkTuned(
    _ results: ResultsJSON, _ label: String, against golden: TuningGoldens.Model, relative tolerance: Double,
    _ name: String
  ) throws {
    let what = "\(name) \(label)"
    let model = try #require(results.model(label), "\(what): no model labelled \(label)")

    // The nested scores: the model's own folds and mean.
    let folds = results.foldLogLoss(label)
    #expect(folds.count == golden.folds.count, "\(what): \(folds.count) outer folds")
    for (actual, expected) in zip(folds, golden.folds) {
      #expect(
        close(actual, expected.outerLogLoss, tolerance),
        "\(what) fold \(expected.fold): nested \(actual) vs scikit-learn \(expected.outerLogLoss)")
    }
    let logLoss = try #require(model["log_loss"] as? [String: Double], "\(what): log_loss")
    let nested = try #require(logLoss["mean"])
    #expect(close(nested, golden.nestedMean, tolerance), "\(what): nested mean \(nested) vs \(golden.nestedMean)")

    guard let tuning = model["tuning"] as? [String: Any] else {
      // A model with nothing to search may be recorded as an ordinary one; its folds are checked above.
      #expect(golden.configs.count == 1, "\(what): no tuning record")
      return
    }

    // The grid, in ParameterGrid order, and each configuration's flat scores.
    let configurations = try #require(tuning["configurations"] as? [[String: Any]], "\(what): configurations")
    try #require(
      configurations.count == golden.configs.count,
      "\(what): \(configurations.count) configurations, scikit-learn's grid has \(golden.configs.count)")
    for (index, (configuration, expected)) in zip(configurations, golden.configs).enumerated() {
      let here = "\(what) configuration \(index) (\(describe(expected)))"
      let params = configuration["params"] as? [String: Any]
      #expect(holds(params, expected), "\(here): params \(params ?? [:])")
      let flat = configuration["flat_folds"] as? [Double] ?? []
      #expect(flat.count == golden.folds.count, "\(here): \(flat.count) flat folds")
      for (actual, fold) in zip(flat, golden.folds) {
        #expect(
          close(actual, fold.flat[index], tolerance),
          "\(here) fold \(fold.fold): flat \(actual) vs scikit-learn \(fold.flat[index])")
      }
      let flatMean = (configuration["flat_log_loss"] as? [String: Double])?["mean"]
      let expectedMean = mean(golden.folds.map { $0.flat[index] })
      #expect(
        flatMean.map { close($0, expectedMean, tolerance) } == true,
        "\(here): flat mean \(flatMean.map { "\($0)" } ?? "missing") vs scikit-learn \(expectedMean)")
    }

    // The choice on each outer fold.
    let chosen = try #require(tuning["chosen"] as? [[String: Any]], "\(what): chosen")
    #expect(chosen.count == golden.folds.count, "\(what): \(chosen.count) choices")
    for (choice, fold) in zip(chosen, golden.folds) {
      let here = "\(what) fold \(fold.fold)"
      #expect(choice["fold"] as? Int == fold.fold, "\(here): recorded as fold \(choice["fold"] ?? "none")")
      let index = choice["configuration"] as? Int
      let inner = choice["inner_log_loss"] as? Double
      let sorted = fold.innerMeans.sorted()
      let margin = sorted.count > 1 ? (sorted[1] - sorted[0]) / sorted[0] : .infinity
      #expect(
        index == fold.chosen,
        """
        \(here): Benchbook chose \(index.map { "\($0)" } ?? "none") (inner \(inner.map { "\($0)" } ?? "none")), \
        scikit-learn \(fold.chosen) (\(describe(golden.configs[fold.chosen]))); scikit-learn's inner means \
        \(fold.innerMeans), its best two apart by \(margin) relative
        """)
      #expect(
        inner.map { close($0, fold.innerMeans[fold.chosen], tolerance) } == true,
        "\(here): inner log-loss \(inner.map { "\($0)" } ?? "missing") vs \(fold.innerMeans[fold.chosen])")
      #expect(
        holds(choice["params"] as? [String: Any], golden.configs[fold.chosen]),
        "\(here): chosen params \(choice["params"] ?? "none") vs \(describe(golden.configs[fold.chosen]))")
    }
    let frequency = tuning["selection_frequency"] as? [Int]
    let expectedFrequency = golden.configs.indices.map { index in golden.folds.filter { $0.chosen == index }.count }
    #expect(frequency == expectedFrequency, "\(what): selection frequency \(frequency ?? []) vs \(expectedFrequency)")

    // The inner protocol on all rows.
    let final = tuning["final_configuration"] as? Int
    #expect(final == golden.finalIndex, "\(what): final configuration \(final ?? -1) vs \(golden.finalIndex)")
    #expect(
      holds(tuning["final_params"] as? [String: Any], golden.finalParams),
      "\(what): final params \(tuning["final_params"] ?? "none") vs \(describe(golden.finalParams))")
  }

  /// A fixed setting beside searched ones applies to every configuration.
  func expectBruteForce(_ results: ResultsJSON, _ name: String) {
    let tuning = results.model("KNN")?["tuning"] as? [String: Any]
    let configurations = tuning?["configurations"] as? [[String: Any]] ?? []
    #expect(!configurations.isEmpty, "\(name) KNN: configurations")
    for (index, configuration) in configurations.enumerated() {
      let algorithm = (configuration["params"] as? [String: Any])?["algorithm"] as? String
      #expect(algorithm == "brute", "\(name) KNN configuration \(index): algorithm \(algorithm ?? "missing")")
    }
  }

  @Test func irisTuned() throws {
    let scratch = try Scratch()
    let spec = try scratch.write(
      "iris-tuned.yaml",
      """
      name: iris-tuned
      data: {path: \(Scratch.shippedData("iris.csv"))}
      target: species
      features: [sepal_length, sepal_width, petal_length, petal_width]
      preprocess: [standardize]
      resampling: {method: stratified-kfold, folds: 10}
      models:
        - LR: {C: {log_range: [0.01, 100], points: 5}}
        - LDA
        - KNN: {n_neighbors: [1, 5, 15], weights: [uniform, distance], algorithm: brute}
        - NB: {var_smoothing: {log_range: [1.0e-9, 1.0e-3], points: 3}}
      tune: {inner: {method: stratified-kfold, folds: 5}}
      """)
    let results = try run(spec)
    let golden = TuningGoldens.named("iris tuned")
    #expect((results.object["data"] as? [String: Any])?["rows"] as? Int == golden.rows)
    try checkTuned(results, "LR", against: golden.models["LR"]!, relative: 1e-4, golden.case)
    try checkTuned(results, "LDA", against: golden.models["LDA"]!, relative: 1e-6, golden.case)
    try checkTuned(results, "KNN", against: golden.models["KNN"]!, relative: 1e-6, golden.case)
    try checkTuned(results, "NB", against: golden.models["NB"]!, relative: 1e-6, golden.case)
    expectBruteForce(results, golden.case)
  }

  @Test func breastCancerTuned() throws {
    let scratch = try Scratch()
    let spec = try scratch.write(
      "breast-cancer-tuned.yaml",
      """
      name: breast-cancer-tuned
      data: {path: \(Scratch.shippedData("breast-cancer.csv"))}
      target: diagnosis
      features: [mean_radius, mean_texture, mean_perimeter, mean_area, mean_smoothness, mean_compactness,
                 mean_concavity, mean_concave_points, mean_symmetry, mean_fractal_dimension]
      preprocess: [standardize]
      resampling: {method: stratified-kfold, folds: 10}
      models:
        - LR: {C: {log_range: [0.001, 1000], points: 7}}
        - KNN: {n_neighbors: [5, 15, 51], weights: [uniform, distance], algorithm: brute}
        - NB: {var_smoothing: {log_range: [1.0e-12, 1.0e-3], points: 4}}
        - DT: {max_depth: [2, 4, 6, null], min_samples_leaf: [1, 20]}
      tune: {inner: {method: stratified-kfold, folds: 5}}
      """)
    let results = try run(spec)
    let golden = TuningGoldens.named("breast-cancer tuned")
    #expect((results.object["data"] as? [String: Any])?["rows"] as? Int == golden.rows)
    try checkTuned(results, "LR", against: golden.models["LR"]!, relative: 1e-4, golden.case)
    try checkTuned(results, "KNN", against: golden.models["KNN"]!, relative: 1e-6, golden.case)
    try checkTuned(results, "NB", against: golden.models["NB"]!, relative: 1e-6, golden.case)
    try checkTuned(results, "DT", against: golden.models["DT"]!, relative: 1e-12, golden.case)
    expectBruteForce(results, golden.case)
  }
}
