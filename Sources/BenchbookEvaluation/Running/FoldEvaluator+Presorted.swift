import BenchbookData
import BenchbookModels
import BenchbookSpec
import Dispatch

/// Folds of a model grown from features sorted once for every fold (`FeaturePresort`, `PresortFitting`: a decision
/// tree), each filtering the sorted lists to its training rows instead of gathering and sorting them: the same
/// trees, node for node, so the scores are bit-identical to `evaluate(_:on:)`, which tests check. A tuned tree's
/// splits share them the same way (`fits(of:train:gathered:labels:model:fold:presorted:)`).
extension FoldEvaluator {
  /// `model`'s classifier when its folds may share sorted features: an untuned model whose descriptor's fold
  /// strategy is `sharedPresort`, no planted slowdown (tests time a repeated fit), and rows that any fold's fit
  /// takes as they are (`fitsRowsAsTheyAre`); `nil` otherwise.
  func presortFitter(_ model: ModelSpec) -> (any PresortFitting)? {
    guard model.search == nil, sharesPresort(model) else { return nil }
    return model.classifier as? any PresortFitting
  }

  /// Whether `model`'s fits, tuned or not, may grow from sorted features shared by many fits: its descriptor's
  /// fold strategy is `sharedPresort`, no planted slowdown (tests time a repeated fit), and rows that any fit
  /// takes as they are (`fitsRowsAsTheyAre`).
  func sharesPresort(_ model: ModelSpec) -> Bool {
    model.descriptor.foldStrategy == .sharedPresort && !FitRepeat.isPlanted(for: model.label) && fitsRowsAsTheyAre
  }

  /// Whether a tuned `model`'s splits may grow from shared sorted features: `sharesPresort`, its configurations
  /// fitted together (`SharedWork.configurations`), and a classifier that fits from them (`PresortFitting`). The
  /// scheduler shares sorted features exactly when this holds, and `fits(of:train:…)` uses them.
  func tunedPresortFitting(_ model: ModelSpec) -> Bool {
    sharesPresort(model) && model.descriptor.traits.sharedWork.contains(.configurations)
      && model.classifier is any PresortFitting
  }

  /// A tuned model's configurations fitted on the training rows `train`, gathered as `x` with `labels`, sharing
  /// their work (`fits(of:on:labels:model:fold:)`) and growing the deepest tree from `shared` sorted features
  /// instead of sorting `x`: the same models, bit for bit.
  /// - Returns: the fits, and the nanoseconds spent waiting for the sorted features less this fit's share of
  ///   building them (what the caller's fit time should drop); with no sorted features (a value beyond float32),
  ///   the wait alone, as the split then sorts its own rows.
  /// - Precondition: every class occurs in `labels`.
  func fits(
    of configurations: [any Classifier], train: RowIndices, gathered x: Matrix, labels: [Int], model: ModelSpec,
    fold: Int?, presorted shared: FoldShared<FeaturePresort?>
  ) throws(ModelFailure) -> (fits: [any FittedClassifier], waitNanoseconds: Int64) {
    guard tunedPresortFitting(model), let first = configurations.first as? any PresortFitting
    else {
      shared.done()
      return (try fits(of: configurations, on: x, labels: labels, model: model, fold: fold), 0)
    }
    let dataset = dataset
    let asked = DispatchTime.now().uptimeNanoseconds
    return try shared.use(building: { FeaturePresort(dataset.x) }) {
      (built) throws(ModelFailure) -> ([any FittedClassifier], Int64) in
      let waited = Int64(DispatchTime.now().uptimeNanoseconds - asked)
      let share = Int64(built.buildSeconds / Double(shared.folds) * 1e9)
      guard let presort = built.value else {
        return (try fits(of: configurations, on: x, labels: labels, model: model, fold: fold), waited)
      }
      do throws(ModelError) {
        // Every class trains, so the dataset's labels serve as they are.
        return (
          try Self.sharedFits(
            first, configurations, presorted: presort, rows: train, labelOfRow: dataset.labels, gathered: x,
            labels: labels, classCount: dataset.classes.count),
          waited - share
        )
      } catch {
        throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
      }
    }
  }

  /// Opens the configurations' common type to call its presorted `sharedFits`.
  private static func sharedFits<C: PresortFitting>(
    _ first: C, _ configurations: [any Classifier], presorted: FeaturePresort, rows: RowIndices, labelOfRow: [Int],
    gathered x: Matrix, labels: [Int], classCount: Int
  ) throws(ModelError) -> [any FittedClassifier] {
    try C.sharedFits(
      configurations.map { $0 as! C }, presorted: presorted, rows: rows.forEachRun, labelOfRow: labelOfRow,
      gathered: x, labels: labels, classCount: classCount)
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
