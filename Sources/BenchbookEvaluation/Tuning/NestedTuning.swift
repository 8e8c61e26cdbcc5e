import BenchbookData
import BenchbookExport
import BenchbookModels
import BenchbookSpec

/// Nested cross-validation of one tuned model: scikit-learn's
/// `cross_validate(GridSearchCV(est, grid, cv=inner), X, y, cv=outer)`.
///
/// Every configuration is scored on every split once (`TuningSplit`); the
/// choices are then pure arithmetic on those scores. Refitting the chosen
/// configuration on an outer training set is the flat fit of that
/// configuration on that fold, so the nested score costs no extra fit.
public struct NestedTuning: Sendable {
  let model: ModelSpec
  /// The grid, then the default configuration when the grid lacks it.
  let configurations: [any Classifier]
  /// How many of `configurations` are the grid (the rest are for comparison only).
  let gridCount: Int
  let defaultIndex: Int
  let outerFolds: [Fold]
  /// Per outer fold, its inner folds; then `finalInner` over all rows.
  let innerFolds: [[Fold]]
  let finalInner: [Fold]
  let tune: TuneSpec

  /// - Parameter folds: the run's inner folds, which every tuned model shares.
  init(_ model: ModelSpec, search: SearchSpace, tune: TuneSpec, plan: FoldPlan, folds: TuningFolds) {
    self.model = model
    self.tune = tune
    var configurations = search.configurations
    gridCount = configurations.count
    let defaults = Self.defaultConfiguration(search)
    if let index = configurations.firstIndex(where: { $0.parameters == defaults.parameters }) {
      defaultIndex = index
    } else {
      defaultIndex = configurations.count
      configurations.append(defaults)
    }
    self.configurations = configurations
    outerFolds = plan.folds
    innerFolds = folds.perOuter
    finalInner = folds.final
  }

  /// The grid's settings at scikit-learn's defaults, the spec's fixed settings kept:
  /// what an untuned run of this model would have fitted.
  static func defaultConfiguration(_ search: SearchSpace) -> any Classifier {
    let first = search.configurations[0]
    var parameters = first.parameters
    for dimension in search.dimensions {
      parameters[dimension.name] = type(of: first).setting(named: dimension.name)?.defaultValue ?? ParameterValue.none
    }
    var settings = SettingsReader(parameters.mapValues(SettingDescriptor.specText))
    // The round trip settings → parameters → settings holds for every classifier (the conformance suite checks it).
    return (try? type(of: first).init(settings: &settings)) ?? first
  }

  /// Every split, in a fixed order: outer folds, their inner folds, the final inner folds. The fits on all rows
  /// are made one at a time when the results are assembled, so only one is alive at once.
  var splits: [TuningSplit] {
    var splits = outerFolds.indices.map { TuningSplit.outer(fold: $0) }
    for (outer, folds) in innerFolds.enumerated() {
      splits += folds.indices.map { TuningSplit.inner(outer: outer, inner: $0) }
    }
    splits += finalInner.indices.map { TuningSplit.inner(outer: nil, inner: $0) }
    return splits
  }

  /// What a split scores: outer folds every configuration with every measure, inner folds the grid only
  /// (they choose among it), by log-loss.
  func scoring(_ split: TuningSplit) -> NeighborGraphPass.Split {
    switch split {
    case .outer(let fold):
      let outer = outerFolds[fold]
      return NeighborGraphPass.Split(
        train: outer.train, test: outer.test, full: true, fold: outer.index, configurationCount: configurations.count)
    case .inner(let outer, let inner):
      let folds = outer.map { innerFolds[$0] } ?? finalInner
      return NeighborGraphPass.Split(
        train: folds[inner].train, test: folds[inner].test, full: false, fold: outer.map { outerFolds[$0].index },
        configurationCount: gridCount)
    }
  }

  /// Scores the configurations a split needs; a size is measured on outer folds only.
  /// - Parameter presorted: sorted features the model's splits share (a decision tree's), counted done here.
  func evaluate(
    _ split: TuningSplit, with evaluator: FoldEvaluator, size: ((Int, FittedPipeline) -> Int?)?,
    presorted: FoldShared<FeaturePresort?>? = nil
  ) throws(ModelFailure) -> ConfigurationScores {
    let scored = scoring(split)
    return try evaluator.evaluate(
      model, configurations: Array(configurations[..<scored.configurationCount]), train: scored.train,
      test: scored.test, full: scored.full, fold: scored.fold, size: scored.full ? size : nil, presorted: presorted)
  }

  /// Scores `splits` together when their work can be shared across splits (`NeighborGraphPass`, for a model whose
  /// descriptor says `SharedWork.neighborSearchAcrossSplits`), with results equal to `evaluate` on each; `nil` when
  /// it cannot, and each split is then evaluated on its own.
  func evaluateTogether(
    _ splits: [TuningSplit], with evaluator: FoldEvaluator, size: (@Sendable (Int, FittedPipeline) -> Int?)?, jobs: Int
  ) throws(ModelFailure) -> [ConfigurationScores]? {
    guard let pass = sharedPass(splits, with: evaluator) else { return nil }
    return try pass.run(jobs: jobs, size: size)
  }

  /// The pass that scores `splits` together, or `nil` when their work cannot be shared.
  func sharedPass(_ splits: [TuningSplit], with evaluator: FoldEvaluator) -> NeighborGraphPass? {
    NeighborGraphPass(evaluator: evaluator, model: model, configurations: configurations, splits: splits.map(scoring))
  }

  /// The first grid configuration with the lowest mean inner log-loss among `allowed` (`GridSearchCV`'s rule).
  static func choose(_ innerMeans: [Double], allowed: [Bool]) -> Int? {
    var best: Int?
    for (index, mean) in innerMeans.enumerated() where allowed[index] {
      if let current = best, !(mean < innerMeans[current]) { continue }
      best = index
    }
    return best
  }

  /// Mean of each grid configuration's log-loss over inner folds, summed in fold order.
  func innerMeans(_ scores: [ConfigurationScores]) -> [Double] { Self.means(scores.map(\.logLoss)) }

  /// Per configuration, the mean of its log-loss over folds (`losses[fold][configuration]`), summed in fold order
  /// as numpy's mean of a few values is.
  static func means(_ losses: [[Double]]) -> [Double] {
    (0..<(losses.first?.count ?? 0)).map { c in losses.reduce(0) { $0 + $1[c] } / Double(losses.count) }
  }
}

extension NestedTuning {
  /// The configuration a tuned model ships: the inner protocol run on all rows, as `benchbook run` chooses it
  /// (`GridSearchCV.fit(X, y).best_estimator_`). For `export` and `audit`, which need it without the outer folds.
  /// - Returns: `model` with `classifier` set to that configuration; a fixed model unchanged.
  public static func resolvingFinal(_ model: ModelSpec, spec: ExperimentSpec, dataset: Dataset, jobs: Int) throws
    -> ModelSpec
  {
    guard let search = model.search else { return model }
    let folds = try InnerFolds.make(
      spec.tune, rows: RowIndices(all: dataset.x.rows), dataset: dataset, specPath: spec.path, outerFold: nil)
    let evaluator = FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing)
    let scores = try ParallelExecutor.run(count: folds.count, jobs: jobs) { (i: Int) throws(ModelFailure) in
      try evaluator.evaluate(
        model, configurations: search.configurations, train: folds[i].train, test: folds[i].test, full: false,
        fold: nil)
    }
    let means = Self.means(scores.map(\.logLoss))
    var resolved = model
    resolved.classifier = search.configurations[choose(means, allowed: means.map { _ in true })!]
    return resolved
  }

  /// The spec with every tuned model resolved to its shipped configuration.
  public static func resolvingFinal(_ spec: ExperimentSpec, dataset: Dataset, jobs: Int) throws -> ExperimentSpec {
    var resolved = spec
    resolved.models = try spec.models.map { try resolvingFinal($0, spec: spec, dataset: dataset, jobs: jobs) }
    return resolved
  }
}
