import BenchbookData
import BenchbookModels
import BenchbookSpec

/// The drop-column screen's fits: the screening model (the best spec model whose probabilities never reach 0 on
/// the sample's inner folds, else a dedicated logistic regression; `SuspectLeakCheck.screener`) on each inner fold
/// of the screen sample, then again without one feature at a time.
///
/// Its work is bounded by what the data say, not by features × folds: every feature is first *neutralised* in each
/// inner fold's full model, which costs predictions, not fits. Its columns are held at their training means; where
/// that costs enough to bring a refit, they are also held at their least-squares prediction from the row's other
/// columns (`ColumnGroupPredictions`, fitted on the fold's training rows), and the smaller loss counts. For a linear
/// model each is a point the refit without the feature can only improve on: the mean moves the feature's weight
/// into the intercept, the prediction onto the columns it is correlated with, so a feature measured twice
/// (diamonds' `x` and `y`) is not refitted. Only the features whose neutralisation costs at least
/// `SuspectLeakCheck.refitFraction` of the warning threshold are refitted, at most `ScreenSample.dropColumnFeatures`
/// of them (the costliest), so clean data, where no feature comes near the threshold, needs no refit at all. A refit
/// of logistic regression starts from the full model's weights without the feature, which converges to the optimum
/// a cold start reaches, in fewer steps.
struct DropColumnScreen: Sendable {
  let sample: ScreenSample
  let model: ModelSpec
  let preprocessing: [PreprocessingStep]

  /// The best model fitted on one inner fold's training rows, and what the neutralisation needs.
  struct Full: Sendable {
    /// `nil` once set aside (`settingAside`): the screen never reads it.
    var pipeline: FittedPipeline?
    /// Raw (unscaled) column means of the fold's training rows.
    var trainingMeans: [Double]
    var logLoss: Double
    /// Test rows whose true-class probability was below ε: a model that gives them (kNN's uniform votes, a pure
    /// leaf) cannot screen, since one such row swings a fold's mean by tens of nats over its size.
    var clippedRows: Int

    /// The fit without its model, when the model has clipped rows and so can never screen
    /// (`SuspectLeakCheck.screener`): the first round's fits are held to the end of the audit, and a kNN's holds
    /// its whole training sample, once per inner fold.
    func settingAside() -> Full {
      guard clippedRows > 0 else { return self }
      return Full(pipeline: nil, trainingMeans: [], logLoss: logLoss, clippedRows: clippedRows)
    }
  }

  func fitFull(fold f: Int) -> Full? {
    let evaluator = FoldEvaluator(dataset: sample.dataset, preprocessing: preprocessing)
    let data = evaluator.gather(sample.folds[f])
    // `data` keeps its own reference to the gathered rows, so the fit copies them before standardising in place
    // and the means below are of the raw rows: handing the fit the last reference would make them standardised.
    guard let pipeline = try? evaluator.fit(model, data.training, fold: f) else { return nil }
    let x = data.training.x
    var means = [Double](repeating: 0, count: x.columns)
    for r in 0..<x.rows {
      for c in 0..<x.columns { means[c] += x[r, c] }
    }
    for c in 0..<x.columns { means[c] /= Double(max(1, x.rows)) }
    let evaluation = LogLoss.evaluate(pipeline.predictProbabilities(data.testX), labels: data.testLabels)
    return Full(
      pipeline: pipeline, trainingMeans: means, logLoss: evaluation.value, clippedRows: evaluation.clippedRows)
  }

  /// Per feature: the full models' mean log-loss over the inner folds with the feature neutralised, less their mean
  /// log-loss with it, as a share of the mean null log-loss; `nil` for every feature when a fold has no full model.
  ///
  /// Neutralised first means held at the training means. A feature whose share that way reaches `refitBar` is then
  /// also held at its prediction from the other columns, and on each fold the lower loss counts (the prediction is
  /// skipped on a fold whose training rows miss a value): it can only lower a share that would otherwise bring a
  /// refit, so it is computed for those features alone.
  func neutralisedShares(_ fitted: [Full?], nullLogLoss: [Double], refitBar: Double, jobs: Int) -> [Double]? {
    let pipelines = fitted.compactMap { $0?.pipeline }
    guard pipelines.count == fitted.count, !fitted.isEmpty else { return nil }
    let full = fitted.map { $0! }
    let sample = sample
    let features = sample.dataset.features
    let folds = full.count
    let tests = sample.folds.map { sample.dataset.x.selecting(rows: $0.test) }
    let labels = sample.folds.map { $0.test.gathering(sample.dataset.labels) }
    let raised: @Sendable (Matrix, Int) -> Double = { x, f in
      LogLoss.evaluate(pipelines[f].predictProbabilities(x), labels: labels[f]).value - full[f].logLoss
    }
    var raisedAtMean = ParallelExecutor.run(count: features.count * folds, jobs: jobs) { (item: Int) -> Double in
      let (j, f) = (item / folds, item % folds)
      var x = tests[f]
      for c in features[j].columns {
        for r in 0..<x.rows { x[r, c] = full[f].trainingMeans[c] }
      }
      return raised(x, f)
    }
    let null = nullLogLoss.reduce(0, +) / Double(max(1, nullLogLoss.count))
    func shares(_ raised: [Double]) -> [Double] {
      features.indices.map { j in
        let share = raised[(j * folds)..<((j + 1) * folds)].reduce(0, +) / Double(folds) / null
        return share.isNaN ? .infinity : share
      }
    }
    let atMean = shares(raisedAtMean)
    let candidates = features.indices.filter { atMean[$0] >= refitBar }
    guard !candidates.isEmpty else { return atMean }
    let groups = features.map { Array($0.columns) }
    let predictions = ParallelExecutor.run(count: folds, jobs: jobs) { (f: Int) -> ColumnGroupPredictions? in
      ColumnGroupPredictions(sample.dataset.x.selecting(rows: sample.folds[f].train), groups: groups)
    }
    let raisedAtPrediction = ParallelExecutor.run(count: candidates.count * folds, jobs: jobs) {
      (item: Int) -> Double? in
      let (j, f) = (candidates[item / folds], item % folds)
      return predictions[f].map { raised($0.replacing(group: j, in: tests[f]), f) }
    }
    for (item, value) in raisedAtPrediction.enumerated() {
      guard let value else { continue }
      let index = candidates[item / folds] * folds + item % folds
      raisedAtMean[index] = min(raisedAtMean[index], value)
    }
    return shares(raisedAtMean)
  }

  /// The features to refit: those whose neutralised share reaches `SuspectLeakCheck.refitFraction` × `threshold`, at
  /// most `dropColumnFeatures` of them (the highest shares; ties to the earlier feature), in feature order. Without a
  /// neutralised share (a fold without its full model) nothing can be ranked: the first features.
  func featuresToRefit(neutralised: [Double]?, threshold: Double) -> [Int] {
    let budget = ScreenSample.dropColumnFeatures
    guard let neutralised else { return Array(sample.dataset.features.indices.prefix(budget)) }
    let candidates = neutralised.indices.filter { neutralised[$0] >= SuspectLeakCheck.refitFraction * threshold }
    let ranked = candidates.sorted { neutralised[$0] != neutralised[$1] ? neutralised[$0] > neutralised[$1] : $0 < $1 }
    return Array(ranked.prefix(budget)).sorted()
  }

  /// The model's log-loss on inner fold `f` without feature `j`; the null model's with no feature left.
  func logLossWithout(feature j: Int, fold f: Int, full: Full?, nullLogLoss: Double) -> Double? {
    let kept = sample.columns(without: j)
    guard let without = sample.keeping(kept) else { return nullLogLoss }
    let evaluator = FoldEvaluator(dataset: without, preprocessing: preprocessing)
    let data = evaluator.gather(sample.folds[f])
    let (scaling, prepared) = evaluator.fitPreprocessing(data.training)
    let classCount = without.classes.count
    let classifier: any FittedClassifier
    do {
      // Standardisation is per column, so the full model's weights on the kept columns are in the units this fit
      // sees.
      if model.descriptor.traits.sharedWork.contains(.warmStart),
        let warm = model.classifier as? any WarmStartFitting, let start = full?.pipeline?.classifier,
        let fitted = try Self.warmStarted(
          warm, prepared, labels: data.training.labels, classCount: classCount, from: start, keeping: kept)
      {
        classifier = fitted
      } else {
        classifier = try model.classifier.fitPresentClasses(
          prepared, labels: data.training.labels, classCount: classCount)
      }
    } catch {
      return nil
    }
    let probabilities = classifier.predictProbabilities(scaling.transform(data.testX))
    return LogLoss.evaluate(probabilities, labels: data.testLabels).value
  }

  /// `configuration` fitted on `x` from `start`'s weights on the columns `kept`, or `nil` when `start` cannot seed
  /// it (another kind of model, another class set).
  private static func warmStarted<C: WarmStartFitting>(
    _ configuration: C, _ x: Matrix, labels: [Int], classCount: Int, from start: any FittedClassifier,
    keeping kept: [Int]
  ) throws(ModelError) -> (any FittedClassifier)? {
    guard let seed = configuration.warmStart(from: start, keepingColumns: kept, classCount: classCount) else {
      return nil
    }
    return try configuration.fit(x, labels: labels, classCount: classCount, from: seed)
  }
}
