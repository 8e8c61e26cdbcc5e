import BenchbookData
import BenchbookModels
import BenchbookSpec
import Testing

@Suite struct SpecParserTests: SpecParsing {
  static let flights = """
    name: flights-delay
    description: Will a departure arrive late?
    data:
      path: data/flights.csv.gz
      missing: drop
    target:
      column: arr_delay
      when: "> 15"
    time: time_hour
    features: [month, day, sched_dep_time, distance]
    preprocess: [standardize]
    resampling:
      method: kfold
      folds: 10
      shuffle: true
      seed: 7
    models: [LR, LDA, KNN, DT, NB]
    """

  @Test func readsTheFlagshipVocabulary() throws {
    let spec = try parse(Self.flights)
    #expect(spec.name == "flights-delay")
    #expect(spec.description == "Will a departure arrive late?")
    #expect(spec.dataset.path == "/specs/data/flights.csv.gz")
    #expect(spec.dataPath == "data/flights.csv.gz")
    #expect(spec.dataset.missing == .drop)
    #expect(spec.dataset.target.column.column == "arr_delay")
    #expect(spec.dataset.target.when == Threshold(.greater, 15))
    #expect(spec.dataset.time?.column == "time_hour")
    #expect(spec.dataset.features.map(\.name) == ["month", "day", "sched_dep_time", "distance"])
    #expect(spec.preprocessing == [.standardize])
    let kfold = try #require(spec.resampling as? KFold)
    #expect(kfold.folds == 10)
    #expect(kfold.shuffle)
    #expect(kfold.seed == 7)
    #expect(spec.models.map(\.label) == ["LR", "LDA", "KNN", "DT", "NB"])
    #expect(spec.models.map(\.descriptor.id) == ["logistic_regression", "lda", "knn", "decision_tree", "gaussian_nb"])
  }

  @Test func absolutePathsStayAbsolute() throws {
    let spec = try parse(
      """
      data: {path: /data/iris.csv}
      target: species
      features: [a]
      """)
    #expect(spec.dataset.path == "/data/iris.csv")
    #expect(spec.name == "exp", "the name defaults to the spec file's name")
    #expect(spec.models.count == 5, "all five models by default")
    #expect(spec.resampling as? KFold == KFold())
  }

  @Test func unknownTopLevelKeyNamesItsLineAndSuggests() throws {
    let error = try #require(specError(Self.flights + "\nresampeling: {}\n"))
    #expect(error.location.line == 18)
    #expect(error.key == "resampeling")
    #expect(error.description.contains("did you mean 'resampling'?"))
    #expect(error.description.hasPrefix("/specs/exp.yaml:18:"))
  }

  @Test func unknownNestedKeyNamesItsDottedKey() throws {
    let yaml = Self.flights.replacingOccurrences(of: "  folds: 10", with: "  fold: 10")
    let error = try #require(specError(yaml))
    #expect(error.key == "resampling.fold")
    #expect(error.location.line == 14)
  }

  @Test func featuresMayBeRenamedDerivedOrTyped() throws {
    let spec = try parse(
      """
      data: {path: k.csv}
      target: state
      features:
        - goal
        - backers: backers_count
        - duration: deadline - launched_at
        - category: {type: categorical}
        - launch_hour: {expr: hour(launched_at), type: numeric}
      """)
    let features = spec.dataset.features
    #expect(features.map(\.name) == ["goal", "backers", "duration", "category", "launch_hour"])
    #expect(features[0].source == .column("goal"))
    #expect(features[1].source == .column("backers_count"))
    #expect(features[2].source == .expression("deadline - launched_at"))
    #expect(features[3].type == .categorical)
    #expect(features[4].source == .expression("hour(launched_at)"))
    #expect(features[4].location.line == 8)
  }

  @Test func repeatedFeatureIsAnError() throws {
    let error = try #require(specError("data: {path: a.csv}\ntarget: y\nfeatures: [a, b, a]\n"))
    #expect(error.description.contains("'a' is listed twice"))
  }

  /// The target is never a feature: listed as it is, renamed, read by an expression, or under `all_except`'s
  /// `also:`, it is a spec error at the feature's line, key `features`. A `when:` target's column is the target too.
  @Test(arguments: [
    ("y", "features:\n  - a\n  - y\n", 6, "feature 'y' is the target column 'y'"),
    ("y", "features:\n  - a\n  - copy: y\n", 6, "feature 'copy' renames the target column 'y'"),
    ("y", "features:\n  - a\n  - copy: {column: y, type: categorical}\n", 6, "feature 'copy' renames the target"),
    ("y", "features:\n  - a\n  - twice: y * 2\n", 6, "feature 'twice' reads `y * 2`, which reads the target"),
    ("y", "features:\n  all_except: [b]\n  also:\n    - y\n", 7, "feature 'y' is the target column 'y'"),
    (
      "{column: y, when: \"> 15\"}", "features:\n  - a\n  - y\n", 6,
      "feature 'y' is the column the target binarises (y > 15.0)"
    ),
    (
      "{column: y, when: \"> 15\"}", "features:\n  - a\n  - late: y - 15\n", 6,
      "reads `y - 15`, which reads the column the target binarises"
    ),
  ])
  func theTargetIsNeverAFeature(target: String, features: String, line: Int, fragment: String) throws {
    let error = try #require(specError("name: exp\ndata: {path: a.csv}\ntarget: \(target)\n\(features)"))
    expectSpecError(error, line: line, key: "features", says: fragment)
    #expect(error.description.hasPrefix("/specs/exp.yaml:\(line)"), "\(error)")
  }

  /// A feature that only resembles the target's name, or a target column no feature reads, is fine.
  @Test func aFeatureNamedLikeTheTargetIsFine() throws {
    let spec = try parse("data: {path: a.csv}\ntarget: {column: y, when: \"> 1\"}\nfeatures: [y2, {yy: y2 * 2}]\n")
    #expect(spec.dataset.features.map(\.name) == ["y2", "yy"])
  }

  @Test(arguments: [
    ("\"> 15\"", Threshold(.greater, 15)), ("\">= 0.5\"", Threshold(.greaterOrEqual, 0.5)),
    ("\"< -2\"", Threshold(.less, -2)), ("\"<= 3\"", Threshold(.lessOrEqual, 3)), ("\"== 1\"", Threshold(.equal, 1)),
  ])
  func readsComparisons(text: String, expected: Threshold) throws {
    let spec = try parse("data: {path: a.csv}\ntarget: {column: y, when: \(text)}\nfeatures: [a]\n")
    #expect(spec.dataset.target.when == expected)
  }

  @Test func badComparisonIsAnErrorAtItsLine() throws {
    let error = try #require(
      specError("data: {path: a.csv}\ntarget:\n  column: y\n  when: \"about 15\"\nfeatures: [a]\n"))
    #expect(error.location.line == 4)
    #expect(error.key == "target.when")
  }

  @Test func modelsTakeSettingsAndLabels() throws {
    let spec = try parse(
      """
      data: {path: a.csv}
      target: y
      features: [a]
      models:
        - LR
        - KNN: {k: 15, weights: distance, label: KNN-15}
        - knn
        - {CART: {max_depth: 3}}
      """)
    #expect(spec.models.map(\.label) == ["LR", "KNN-15", "KNN", "DT"])
    #expect(spec.models[1].classifier.parameters["n_neighbors"] == .int(15))
  }

  @Test func unknownModelSuggestsAName() throws {
    let error = try #require(specError("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nmodels: [LR, KNM]\n"))
    #expect(error.location.line == 4)
    #expect(error.description.contains("did you mean 'KNN'?"))
  }

  @Test func badModelSettingPointsAtItsLine() throws {
    let error = try #require(
      specError("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nmodels:\n  - KNN:\n      k: 0\n"))
    #expect(error.location.line == 6)
    #expect(error.key == "models[0].KNN.k")
    #expect(error.description.contains("at least 1"))
  }

  @Test func unknownModelSettingIsAnError() throws {
    let error = try #require(
      specError("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nmodels:\n  - KNN: {neighbours: 3}\n"))
    #expect(error.description.contains("unknown setting 'neighbours'"))
    #expect(error.location.line == 5)
  }

  @Test func sameAlgorithmTwiceNeedsLabels() throws {
    let error = try #require(specError("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nmodels: [KNN, {KNN: {k: 3}}]\n"))
    #expect(error.description.contains("give each a distinct 'label'"))
  }

  @Test func timeSeriesNeedsATimeColumn() throws {
    let error = try #require(
      specError("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nresampling: {method: time-series}\n"))
    #expect(error.description.contains("time:"))
  }

  @Test func settingsThatDoNotApplyAreRejected() throws {
    let error = try #require(
      specError("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nresampling: {method: kfold, gap: 3}\n"))
    #expect(error.description.contains("'gap' does not apply to kfold"))
  }

  @Test func resamplingVariants() throws {
    let repeated = try parse(
      "data: {path: a.csv}\ntarget: y\nfeatures: [a]\nresampling: {method: repeated-kfold, folds: 5, repeats: 3, seed: 11}\n"
    )
    #expect(
      repeated.resampling as? RepeatedKFold
        == RepeatedKFold(
          folds: 5, repeats: 3, seed: 11, foldsLocation: (repeated.resampling as? RepeatedKFold)?.foldsLocation))
    #expect(repeated.resampling.record(foldsPerRepeat: 5).shuffle, "repeated k-fold always shuffles")
    let holdout = try parse("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nresampling: {method: holdout}\n")
    #expect((holdout.resampling as? Holdout)?.testSize == 0.25)
    let series = try parse(
      "data: {path: a.csv}\ntarget: y\ntime: t\nfeatures: [a]\nresampling: {method: time-series, folds: 4, gap: 2, max_train_size: 100, test_size: 10}\n"
    )
    let split = try #require(series.resampling as? TimeSeriesSplit)
    #expect(split.folds == 4 && split.gap == 2 && split.maxTrainSize == 100 && split.testSize == 10)
  }

  @Test func tooFewFoldsIsAnError() throws {
    let error = try #require(specError("data: {path: a.csv}\ntarget: y\nfeatures: [a]\nresampling: {folds: 1}\n"))
    #expect(error.description.contains("at least 2"))
  }

  @Test func invalidYAMLNamesItsLine() throws {
    let error = try #require(specError("data: {path: a.csv\ntarget: y\n"))
    #expect(error.location.line != nil)
    #expect(error.description.contains("not valid YAML"))
  }

  @Test func duplicateKeysAreErrors() throws {
    let error = try #require(specError("data: {path: a.csv}\ntarget: y\ntarget: z\nfeatures: [a]\n"))
    #expect(error.description.contains("'target' appears twice"))
  }

  @Test func missingFileIsAnError() {
    #expect(throws: SpecError.self) { try SpecParser.parse(file: "/nonexistent/spec.yaml") }
  }

  @Test func badNameIsRejected() throws {
    let error = try #require(specError("name: ../escape\ndata: {path: a.csv}\ntarget: y\nfeatures: [a]\n"))
    #expect(error.key == "name")
  }
}
