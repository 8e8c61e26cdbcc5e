import BenchbookData
import BenchbookSpec

/// The inner splits a tuned model chooses its configuration on: made from one
/// outer training set (or from all rows, for the final choice), never from its test rows.
public enum InnerFolds {
  /// Splits `rows` (dataset row numbers, ascending) as `tune` says; folds hold dataset row numbers.
  ///
  /// The tune's inner method cuts them (`InnerResampling.innerFolds`): stratified and plain k-fold in the order
  /// given, unshuffled, as `GridSearchCV(cv=5)` cuts `X[train]`; group methods split them by their own groups, as
  /// `GridSearchCV(cv=GroupKFold(5)).fit(X[train], y[train], groups=g[train])`; time-series chains forward over
  /// them by time.
  /// - Throws: `SpecError` at the spec when the rows cannot be split so.
  public static func make(_ tune: TuneSpec, rows: RowIndices, dataset: Dataset, specPath: String, outerFold: Int?)
    throws(SpecError) -> [Fold]
  {
    let k = tune.innerFolds
    let place = outerFold.map { "the training rows of outer fold \($0 + 1)" } ?? "all rows"
    func fail(_ message: String) -> SpecError {
      SpecError(message, at: tune.innerFoldsLocation ?? SourceLocation(file: specPath), key: "tune.inner.folds")
    }
    guard rows.count >= k else { throw fail("\(k) inner folds need \(k) rows; \(place) hold \(rows.count)") }
    return try tune.inner.innerFolds(
      k, of: rows, labels: dataset.labels, classCount: dataset.classes.count, time: dataset.time,
      groups: dataset.groups, place: place, fail: fail)
  }
}
