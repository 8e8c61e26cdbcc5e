import BenchbookData
import BenchbookModels
import BenchbookSpec

/// The drop-column screen's fits: the screening model (the best spec model whose probabilities never reach 0 on
/// the sample's inner folds, else a dedicated logistic regression; `SuspectLeakCheck.screener`) on each inner fold
/// of the screen sample, then again without one feature at a time.
///
/// Its work is bounded by a budget that scales with the data, not with features × folds: at most
/// `ScreenSample.dropColumnFeatures` features are refitted (on every inner fold), so the screen
/// costs at most that many cross-validations of the best model on the sample, however wide the
/// data. With more features than that, each is first *neutralised* in the first inner fold's full
/// model (its columns set to their training means, which for a linear model is the feature's weight
/// moved into the intercept; no refit), and the features whose neutralisation costs the most
/// log-loss are refitted. A refit of logistic regression starts from the full model's weights without the
/// feature, which converges to the optimum a cold start reaches, in fewer steps.
struct DropColumnScreen: Sendable {
  let sample: ScreenSample
  let model: ModelSpec
  let preprocessing: [PreprocessingStep]

  /// The best model fitted on one inner fold's training rows, and what the neutralisation needs.
  struct Full: Sendable {
    var pipeline: FittedPipeline
    /// Raw (unscaled) column means of the fold's training rows.
    var trainingMeans: [Double]
    var logLoss: Double
    /// Test rows whose true-class probability was below ε: a model that gives them (kNN's uniform votes, a pure
    /// leaf) cannot screen, since one such row swings a fold's mean by tens of nats over its size.
    var clippedRows: Int
  }

  func fitFull(fold f: Int) -> Full? {
    let evaluator = FoldEvaluator(dataset: sample.dataset, preprocessing: preprocessing)
    let data = evaluator.gather(sample.folds[f])
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

  /// Every feature when they fit the budget; otherwise the `dropColumnFeatures` whose neutralisation
  /// raises the full model's log-loss most on the first inner fold (ties to the earlier feature), in
  /// feature order. Without a full model on every fold nothing can be ranked: the first features.
  func featuresToRefit(_ fitted: [Full?], jobs: Int) -> [Int] {
    let features = sample.dataset.features
    let budget = ScreenSample.dropColumnFeatures
    guard features.count > budget else { return Array(features.indices) }
    guard fitted.allSatisfy({ $0 != nil }) else { return Array(0..<budget) }
    let full = fitted.map { $0! }
    let sample = sample
    // One inner fold ranks: a prediction per feature costs as much as a refit for a model that
    // only predicts (kNN), so ranking on every fold would cost what the budget saves.
    let fold = sample.folds[0]
    let test = sample.dataset.x.selecting(rows: fold.test)
    let labels = fold.test.gathering(sample.dataset.labels)
    let cost = ParallelExecutor.run(count: features.count, jobs: jobs) { (j: Int) -> Double in
      var x = test
      for c in features[j].columns {
        for r in 0..<x.rows { x[r, c] = full[0].trainingMeans[c] }
      }
      let raised = LogLoss.evaluate(full[0].pipeline.predictProbabilities(x), labels: labels).value - full[0].logLoss
      return raised.isNaN ? .infinity : raised
    }
    let ranked = features.indices.sorted { cost[$0] != cost[$1] ? cost[$0] > cost[$1] : $0 < $1 }
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
        let warm = model.classifier as? any WarmStartFitting, let start = full?.pipeline.classifier,
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
