import BenchbookData
import BenchbookModels
import BenchbookSpec
import Testing

/// Search spaces in `models:` (lists, `log_range`, `range`), and the `tune:` and `budget:` sections.
@Suite struct SearchSpaceSpecTests: SpecParsing {
  /// Three lines; `models:` follows on line 4.
  static let header = "data: {path: a.csv}\ntarget: y\nfeatures: [a]\n"
  /// Four lines, with a time column and time-series resampling.
  static let timeSeriesHeader =
    "data: {path: a.csv}\ntarget: y\ntime: t\nfeatures: [a]\n"
    + "resampling: {method: time-series}\n"

  /// The single model of a spec whose `models:` section is `models`.
  func model(_ models: String) throws -> ModelSpec {
    let spec = try parse(Self.header + "models:\n" + models)
    #expect(spec.models.count == 1)
    return try #require(spec.models.first)
  }

  /// The named settings of every configuration of `model`'s grid, in grid order.
  func grid(_ model: ModelSpec, _ names: [String]) throws -> [[ParameterValue]] {
    let search = try #require(model.search)
    return search.configurations.map { configuration in names.map { configuration.parameters[$0] ?? .none } }
  }

  /// The values of `model`'s one searched setting.
  func searchedValues(_ model: ModelSpec) throws -> [ParameterValue] {
    let search = try #require(model.search)
    #expect(search.dimensions.count == 1)
    let dimension = try #require(search.dimensions.first)
    #expect(search.configurations.map { $0.parameters[dimension.name] ?? .none } == dimension.values)
    return dimension.values
  }

  // MARK: - Grids

  /// scikit-learn's `ParameterGrid`: dimensions sorted by name (n_neighbors < weights), the last varying fastest.
  @Test func gridFollowsParameterGridOrder() throws {
    let model = try model("  - KNN: {weights: [uniform, distance], k: [5, 15]}\n")
    #expect(model.isTuned)
    let search = try #require(model.search)
    #expect(search.dimensions.map(\.name) == ["n_neighbors", "weights"], "the alias k searches n_neighbors")
    #expect(search.dimensions[0].values == [.int(5), .int(15)])
    #expect(search.dimensions[1].values == [.string("uniform"), .string("distance")])
    #expect(search.dimensions.allSatisfy { $0.location.line == 5 && $0.location.file == "/specs/exp.yaml" })
    #expect(
      try grid(model, ["n_neighbors", "weights"]) == [
        [.int(5), .string("uniform")], [.int(5), .string("distance")],
        [.int(15), .string("uniform")], [.int(15), .string("distance")],
      ])
    #expect(search.searchedParameters(1) == ["n_neighbors": .int(5), "weights": .string("distance")])
    // Until a run chooses, the model's configuration is the grid's first.
    #expect(model.classifier.parameters == search.configurations[0].parameters)
    #expect(model.descriptor.id == "knn" && model.label == "KNN")
  }

  /// Names sort by code point, as Python's `sorted`: `C` before `fit_intercept` before `penalty`.
  @Test func gridSortsNamesByCodePoint() throws {
    let model = try model("  - LR: {penalty: [l2, none], fit_intercept: [true, false], C: [0.1, 10]}\n")
    let names = ["C", "fit_intercept", "penalty"]
    #expect(model.search?.dimensions.map(\.name) == names)
    var expected: [[ParameterValue]] = []
    for c in [0.1, 10.0] {
      for intercept in [true, false] {
        for penalty in ["l2", "none"] { expected.append([.double(c), .bool(intercept), .string(penalty)]) }
      }
    }
    #expect(try grid(model, names) == expected)
  }

  @Test func fixedSettingsAndTheLabelApplyToEveryConfiguration() throws {
    let model = try model("  - KNN: {k: [3, 7], algorithm: brute, leaf_size: 12, label: KNN-grid}\n")
    #expect(model.label == "KNN-grid")
    #expect(
      try grid(model, ["n_neighbors", "algorithm", "leaf_size"]) == [
        [.int(3), .string("brute"), .int(12)], [.int(7), .string("brute"), .int(12)],
      ])
  }

  @Test func aScalarKeepsTheModelUntuned() throws {
    let spec = try parse(Self.header + "models:\n  - KNN: {k: 15, weights: distance}\n  - LR\n")
    #expect(spec.models.allSatisfy { $0.search == nil && !$0.isTuned })
    #expect(!spec.tunes)
    #expect(spec.models[0].classifier.parameters["n_neighbors"] == .int(15))
  }

  @Test func nullInAListSearchesNone() throws {
    let model = try model("  - DT: {max_depth: [2, null]}\n")
    #expect(try searchedValues(model) == [.int(2), .none])
    let depths = try #require(model.search).configurations.map { ($0 as? DecisionTree)?.maxDepth }
    #expect(depths == [2, nil])
    #expect(try searchedValues(try self.model("  - DT: {max_depth: [none, 3]}\n")) == [.none, .int(3)])
  }

  // MARK: - Ranges

  /// numpy's `geomspace(0.001, 1000, 7)`: exact powers of ten.
  @Test func logRangeGivesExactPowersOfTen() throws {
    let model = try model("  - LR: {C: {log_range: [0.001, 1000], points: 7}}\n")
    let values = try searchedValues(model)
    #expect(values == [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0].map { .double($0) })
    #expect(values.allSatisfy { if case .double = $0 { true } else { false } })
  }

  @Test func wholeNumberLogRangeRounds() throws {
    // 10^0, 10^0.5 ≈ 3.16, 10^1, 10^1.5 ≈ 31.6, 10^2.
    let values = try searchedValues(try model("  - KNN: {k: {log_range: [1, 100], points: 5}}\n"))
    #expect(values == [.int(1), .int(3), .int(10), .int(32), .int(100)])
    #expect(values.allSatisfy { if case .int = $0 { true } else { false } })
  }

  @Test func wholeNumberLogRangeThatRoundsTwiceIsAnError() throws {
    let error = try #require(
      specError(Self.header + "models:\n  - DT:\n      min_samples_leaf: {log_range: [1, 3], points: 5}\n"))
    #expect(error.location.line == 6)
    #expect(error.key == "models[0].DT.min_samples_leaf")
    #expect(error.message.contains("gives 1 twice"))
  }

  @Test func rangeStepsFromLowToHigh() throws {
    #expect(try searchedValues(try model("  - KNN: {k: {range: [2, 10], step: 4}}\n")) == [.int(2), .int(6), .int(10)])
    // The high end is included only when a step lands on it.
    #expect(try searchedValues(try model("  - KNN: {k: {range: [2, 9], step: 4}}\n")) == [.int(2), .int(6)])
    #expect(
      try searchedValues(try model("  - NB: {var_smoothing: {range: [0.5, 2], step: 0.5}}\n"))
        == [0.5, 1.0, 1.5, 2.0].map { .double($0) })
  }

  // MARK: - Located errors

  @Test func invalidValueInAListPointsAtTheValue() throws {
    let block = try #require(specError(Self.header + "models:\n  - KNN:\n      k:\n        - 5\n        - 0\n"))
    expectSpecError(block, line: 8, key: "models[0].KNN.k[1]", says: "at least 1")
    #expect(block.description.hasPrefix("/specs/exp.yaml:8:"))
    let flow = try #require(specError(Self.header + "models:\n  - KNN: {k: [5, 0]}\n"))
    expectSpecError(flow, line: 5, key: "models[0].KNN.k[1]", says: "at least 1")
    #expect(flow.location.column == 18, "the column of the 0")
  }

  @Test func unknownSettingGivenAsAListSuggestsTheName() throws {
    let error = try #require(specError(Self.header + "models:\n  - KNN:\n      neighbors: [5, 15]\n"))
    expectSpecError(error, line: 6, key: "models[0].KNN.neighbors", says: "unknown setting 'neighbors'")
    #expect(error.message.contains("did you mean 'n_neighbors'?"))
  }

  @Test(arguments: ["leaf_size: [10, 20]", "algorithm: [brute, kd_tree]", "index: [linear, kd-tree]"])
  func nonSearchableSettingIsAnError(_ setting: String) throws {
    let error = try #require(specError(Self.header + "models:\n  - KNN:\n      \(setting)\n"))
    let key = String(setting.prefix { $0 != ":" })
    expectSpecError(error, line: 6, key: "models[0].KNN.\(key)", says: "'\(key)' cannot be searched")
    #expect(error.message.contains("searchable: n_neighbors, weights"))
  }

  @Test func modelWithNothingToSearchSaysSo() throws {
    let error = try #require(specError(Self.header + "models:\n  - LDA: {tol: [0.0001, 0.001]}\n"))
    expectSpecError(error, line: 5, key: "models[0].LDA.tol", says: "has no setting to search")
  }

  @Test(arguments: [
    ("k: [5, 15, 5]", "models[0].KNN.k[2]", "lists 5 twice"),
    ("k: [5, 15, 05]", "models[0].KNN.k[2]", "lists 5 twice"),
    ("weights: [distance, uniform, Distance]", "models[0].KNN.weights[2]", "lists distance twice"),
  ])
  func duplicateValueIsAnErrorAtTheRepeat(_ setting: String, _ key: String, _ message: String) throws {
    let error = try #require(specError(Self.header + "models:\n  - KNN:\n      \(setting)\n"))
    expectSpecError(error, line: 6, key: key, says: message)
  }

  @Test func duplicateValuesCompareAsTheirSetting() throws {
    let numbers = try #require(specError(Self.header + "models:\n  - LR: {C: [1, 1.0]}\n"))
    expectSpecError(numbers, line: 5, key: "models[0].LR.C[1]", says: "lists 1 twice")
    let nones = try #require(specError(Self.header + "models:\n  - DT: {max_depth: [null, none]}\n"))
    expectSpecError(nones, line: 5, key: "models[0].DT.max_depth[1]", says: "twice")
  }

  @Test(arguments: ["[0, 10]", "[-1, 10]"])
  func logRangeNeedsPositiveEnds(_ ends: String) throws {
    let error = try #require(
      specError(Self.header + "models:\n  - LR:\n      C:\n        log_range: \(ends)\n        points: 3\n"))
    expectSpecError(error, line: 7, key: "models[0].LR.C.log_range", says: "above 0")
  }

  @Test func logRangeNeedsPoints() throws {
    let error = try #require(specError(Self.header + "models:\n  - LR:\n      C:\n        log_range: [0.1, 10]\n"))
    expectSpecError(error, line: 7, key: "models[0].LR.C", says: "needs 'points'")
  }

  @Test(arguments: ["0", "-2"])
  func rangeStepMustBePositive(_ step: String) throws {
    let error = try #require(
      specError(Self.header + "models:\n  - KNN:\n      k:\n        range: [2, 10]\n        step: \(step)\n"))
    expectSpecError(error, line: 8, key: "models[0].KNN.k.step", says: "step must be above 0")
  }

  @Test(arguments: [("KNN", "weights"), ("LR", "penalty"), ("LR", "fit_intercept"), ("DT", "criterion")])
  func rangeOfAWordOrFlagSettingIsAnError(_ model: String, _ setting: String) throws {
    let error = try #require(
      specError(Self.header + "models:\n  - \(model):\n      \(setting): {range: [1, 3], step: 1}\n"))
    expectSpecError(error, line: 6, key: "models[0].\(model).\(setting)", says: "takes words, not numbers")
  }

  // MARK: - tune and budget

  @Test func tuneDefaultsToFiveStratifiedInnerFolds() throws {
    let spec = try parse(Self.header + "models: [{KNN: {k: [5, 15]}}]\n")
    #expect(spec.tune == TuneSpec(inner: StratifiedKFold.self, innerFolds: 5, metric: "log_loss"))
    #expect(spec.budget == nil)
  }

  @Test func timeSeriesOuterFoldsGetTimeSeriesInnerFolds() throws {
    #expect(try parse(Self.timeSeriesHeader).tune == TuneSpec(inner: TimeSeriesSplit.self, innerFolds: 5))
    let folds = try parse(Self.timeSeriesHeader + "tune: {inner: {folds: 3}}\n")
    #expect(folds.tune == TuneSpec(inner: TimeSeriesSplit.self, innerFolds: 3))
    let spelled = try parse(Self.timeSeriesHeader + "tune: {inner: {method: time_series}}\n")
    #expect(spelled.tune.inner.id == "time-series")
  }

  @Test func tuneReadsItsSettings() throws {
    let spec = try parse(Self.header + "tune:\n  inner: {method: kfold, folds: 4}\n  metric: log_loss\n")
    #expect(spec.tune == TuneSpec(inner: KFold.self, innerFolds: 4, metric: "log_loss"))
  }

  @Test func unknownInnerMethodIsAnError() throws {
    let error = try #require(specError(Self.header + "tune:\n  inner:\n    method: bogus\n"))
    expectSpecError(error, line: 6, key: "tune.inner.method", says: "unknown inner method 'bogus'")
    let typo = try #require(specError(Self.header + "tune: {inner: {method: kfols}}\n"))
    #expect(typo.message.contains("did you mean 'kfold'?"))
  }

  @Test func theOnlyTuningMetricIsLogLoss() throws {
    let error = try #require(specError(Self.header + "tune:\n  metric: accuracy\n"))
    expectSpecError(error, line: 5, key: "tune.metric", says: "only tuning metric is log_loss")
  }

  @Test(arguments: ["kfold", "stratified-kfold"])
  func timeSeriesOuterFoldsRejectOtherInnerFolds(_ method: String) throws {
    let error = try #require(specError(Self.timeSeriesHeader + "tune:\n  inner:\n    method: \(method)\n"))
    expectSpecError(error, line: 8, key: "tune.inner.method", says: "the inner folds must be too")
  }

  @Test func timeSeriesInnerFoldsNeedATimeColumn() throws {
    let error = try #require(specError(Self.header + "tune: {inner: {method: time-series}}\n"))
    expectSpecError(error, line: 4, key: "tune.inner.method", says: "declare the time column")
  }

  @Test func budgetReadsItsLimits() throws {
    let spec = try parse(Self.header + "budget: {model_size_bytes: 100000, latency_us_p99: 50}\n")
    #expect(spec.budget == BudgetSpec(modelSizeBytes: 100_000, latencyMicrosecondsP99: 50))
    #expect(
      try parse(Self.header + "budget: {latency_us_p99: 2.5}\n").budget == BudgetSpec(latencyMicrosecondsP99: 2.5))
  }

  @Test func emptyBudgetIsAnError() throws {
    let error = try #require(specError(Self.header + "budget: {}\n"))
    expectSpecError(error, line: 4, key: "budget", says: "needs model_size_bytes or latency_us_p99")
  }

  @Test func budgetSizeMustBePositive() throws {
    let error = try #require(specError(Self.header + "budget:\n  model_size_bytes: 0\n"))
    expectSpecError(error, line: 5, key: "budget.model_size_bytes", says: "at least 1")
  }

  // MARK: - Definition text

  /// What a spec without tuning measures reads as it did before search spaces existed.
  @Test func definitionWithoutTuningHasNoTuneOrBudgetLine() throws {
    let plain = try parse(Self.header + "models: [LR, {KNN: {k: 15}}]\n")
    #expect(
      plain.definitionText == """
        target y
        feature a = column a
        time -
        missing error
        preprocess \n\
        resampling kfold folds=5 shuffle=false seed=0 repeats=10 gap=0 max_train_size=- test_size=-

        """)
    // A tune section changes nothing while no model lists values.
    let idle = try parse(Self.header + "models: [LR, {KNN: {k: 15}}]\ntune: {inner: {folds: 3}}\n")
    #expect(idle.definitionText == plain.definitionText)
  }

  @Test func definitionOfATuningSpecNamesItsTuning() throws {
    let plain = try parse(Self.header + "models: [LR, {KNN: {k: 15}}]\n")
    let tuned = try parse(Self.header + "models: [LR, {KNN: {k: [5, 15]}}]\n")
    #expect(tuned.tunes)
    #expect(tuned.definitionText == plain.definitionText + "tune inner=stratified-kfold folds=5 metric=log_loss\n")
    let custom = try parse(
      Self.header + "models: [{LR: {C: [1, 10]}}]\ntune: {inner: {method: kfold, folds: 3}}\n"
        + "budget: {model_size_bytes: 100000}\n")
    let lines = custom.definitionText.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.suffix(2)) == [
        "tune inner=kfold folds=3 metric=log_loss", "budget model_size_bytes=100000 latency_us_p99=-",
      ])
  }
}

/// Expects `error` at `line` of the test spec, under `key`, with a message containing `text`.
func expectSpecError(
  _ error: SpecError, line: Int, key: String, says text: String,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(error.location.file == "/specs/exp.yaml", sourceLocation: sourceLocation)
  #expect(error.location.line == line, "\(error)", sourceLocation: sourceLocation)
  #expect(error.key == key, "\(error)", sourceLocation: sourceLocation)
  #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
}
