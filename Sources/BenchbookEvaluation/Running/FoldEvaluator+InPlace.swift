import BenchbookData
import BenchbookModels
import BenchbookSpec
import Dispatch

/// Folds of a model whose fit only reads its rows in order (naive Bayes, LDA: `RowSubsetFitting`), fitted on
/// the dataset's rows where they are instead of a gathered copy: the same rows in the same order, so the
/// scores are bit-identical to the gathered fit's, which tests check.
extension FoldEvaluator {
  /// `model`'s classifier when its folds may read their rows in place: an untuned model whose descriptor's fold
  /// strategy is `inPlace`, no planted slowdown (tests time a repeated fit), and rows that any fold's fit takes as
  /// they are (`fitsRowsAsTheyAre`); `nil` otherwise.
  func inPlaceFitter(_ model: ModelSpec) -> (any RowSubsetFitting)? {
    guard model.descriptor.foldStrategy == .inPlace, model.search == nil, !FitRepeat.isPlanted(for: model.label),
      fitsRowsAsTheyAre
    else { return nil }
    return model.classifier as? any RowSubsetFitting
  }

  /// Rows a fold of `model` on `trainingRows` rows holds at its largest: the model's working copies, less the
  /// gathered one when it reads the rows in place (naive Bayes then holds none, LDA its centred copy). For
  /// scheduling only.
  func heldRows(_ model: ModelSpec, training trainingRows: Int) -> Int {
    model.descriptor.traits.heldRows(training: trainingRows) - (inPlaceFitter(model) == nil ? 0 : trainingRows)
  }

  /// `fitAllRows(model)` with every row read in place by `classifier`, as its folds read theirs. Handed the
  /// dataset's matrix whole, a fit that rewrites a matrix it owns (LDA centres and transposes it in place) would
  /// first copy it and then transpose the copy, where reading in place writes its centred transpose at once.
  func fitAllRows(_ model: ModelSpec, inPlace classifier: any RowSubsetFitting) throws(ModelFailure)
    -> FittedPipeline
  {
    let all = RowIndices(all: dataset.x.rows)
    let fitted = try fit(model, inPlace: classifier, rows: all, fold: nil)
    return FittedPipeline(
      preprocessing: FittedPreprocessing(scalers: [], fittedOn: RowSetFingerprint(all)), classifier: fitted)
  }

  /// `classifier`, `model`'s, fitted on the dataset's `train` rows read where they are.
  /// - Parameter fold: the fold being fitted, or `nil` for all rows (named in errors).
  private func fit(_ model: ModelSpec, inPlace classifier: any RowSubsetFitting, rows train: RowIndices, fold: Int?)
    throws(ModelFailure) -> any FittedClassifier
  {
    let rows = RowSubset(dataset.x, count: train.count, labelOfRow: dataset.labels) { visit in
      train.forEachRun(visit)
    }
    do throws(ModelError) {
      return try classifier.fitPresentClasses(rows, classCount: dataset.classes.count)
    } catch {
      throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
    }
  }

  /// `evaluate(model, on: fold)` with the training rows read in place by `classifier`, the model's.
  func evaluate(_ model: ModelSpec, on fold: Fold, inPlace classifier: any RowSubsetFitting) throws(ModelFailure)
    -> Outcome
  {
    let train = fold.train
    let start = DispatchTime.now().uptimeNanoseconds
    let fitted = try fit(model, inPlace: classifier, rows: train, fold: fold.index)
    let fitSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let pipeline = FittedPipeline(
      preprocessing: FittedPreprocessing(scalers: [], fittedOn: RowSetFingerprint(train)), classifier: fitted)
    return try score(pipeline, on: fold, fitSeconds: fitSeconds, model: model)
  }
}
