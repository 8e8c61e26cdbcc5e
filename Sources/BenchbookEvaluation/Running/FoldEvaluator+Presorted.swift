import BenchbookData
import BenchbookModels
import BenchbookSpec
import Dispatch

/// Folds of a model grown from features sorted once for every fold (`FeaturePresort`, `PresortFitting`: a decision
/// tree), each filtering the sorted lists to its training rows instead of gathering and sorting them: the same
/// trees, node for node, so the scores are bit-identical to `evaluate(_:on:)`, which tests check.
extension FoldEvaluator {
  /// `model`'s classifier when its folds may share sorted features: an untuned model whose descriptor's fold
  /// strategy is `sharedPresort`, no planted slowdown (tests time a repeated fit), and rows that any fold's fit
  /// takes as they are (`fitsRowsAsTheyAre`); `nil` otherwise.
  func presortFitter(_ model: ModelSpec) -> (any PresortFitting)? {
    guard model.descriptor.foldStrategy == .sharedPresort, model.search == nil,
      !FitRepeat.isPlanted(for: model.label), fitsRowsAsTheyAre
    else { return nil }
    return model.classifier as? any PresortFitting
  }

  /// `evaluate(model, on: fold)`, growing the tree from `shared` sorted features. Data the sort refuses (a
  /// value beyond float32) is evaluated fold by fold, so the fold's own fit reports it with its place.
  func evaluate(_ model: ModelSpec, on fold: Fold, presorted shared: FoldShared<FeaturePresort?>)
    throws(ModelFailure) -> Outcome
  {
    guard let tree = presortFitter(model) else {
      shared.done()
      return try evaluate(model, on: fold)
    }
    let dataset = dataset
    return try shared.use(building: { FeaturePresort(dataset.x) }) { (built) throws(ModelFailure) -> Outcome in
      guard let presort = built.value else { return try evaluate(model, on: fold) }
      let start = DispatchTime.now().uptimeNanoseconds
      let classifier = try fit(tree, presorted: presort, rows: fold.train, model: model, fold: fold.index)
      let fitSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      let pipeline = FittedPipeline(
        preprocessing: FittedPreprocessing(scalers: [], fittedOn: RowSetFingerprint(fold.train)), classifier: classifier
      )
      return try score(
        pipeline, on: fold, fitSeconds: fitSeconds + built.buildSeconds / Double(shared.folds), model: model)
    }
  }

  /// `fitAllRows(model)`, growing the tree from `shared` sorted features (their filter keeps every row): the tree
  /// a fit on the gathered rows grows, node for node, without sorting every row again.
  func fitAllRows(_ model: ModelSpec, presorted shared: FoldShared<FeaturePresort?>) throws(ModelFailure)
    -> FittedPipeline
  {
    guard let tree = presortFitter(model) else {
      shared.done()
      return try fitAllRows(model)
    }
    let dataset = dataset
    return try shared.use(building: { FeaturePresort(dataset.x) }) { (built) throws(ModelFailure) -> FittedPipeline in
      guard let presort = built.value else { return try fitAllRows(model) }
      let all = RowIndices(all: dataset.x.rows)
      return FittedPipeline(
        preprocessing: FittedPreprocessing(scalers: [], fittedOn: RowSetFingerprint(0..<dataset.x.rows)),
        classifier: try fit(tree, presorted: presort, rows: all, model: model, fold: nil))
    }
  }

  /// `tree` grown on `rows` from sorted features, as `fit` would grow it on the gathered rows.
  private func fit(
    _ tree: any PresortFitting, presorted presort: FeaturePresort, rows: RowIndices, model: ModelSpec, fold: Int?
  )
    throws(ModelFailure) -> any FittedClassifier
  {
    // The dataset's labels serve every fit as they are; only a fold lacking a class renumbers them.
    var marked = [Bool](repeating: false, count: dataset.classes.count)
    dataset.labels.withUnsafeBufferPointer { labels in
      rows.forEachRun { run in for row in run { marked[labels[row]] = true } }
    }
    let present = PresentClasses(present: marked)
    do throws(ModelError) {
      if let single = present.singleClassModel { return single }
      return present.widened(
        try tree.fit(
          presorted: presort, rows: rows.forEachRun, labelOfRow: present.dense(dataset.labels),
          classCount: present.count))
    } catch {
      throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
    }
  }
}
