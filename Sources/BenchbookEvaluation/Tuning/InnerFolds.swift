import BenchbookData
import BenchbookSpec

/// The inner splits a tuned model chooses its configuration on: made from one
/// outer training set (or from all rows, for the final choice), never from its test rows.
public enum InnerFolds {
  /// Splits `rows` (dataset row numbers, ascending) as `tune` says; folds hold dataset row numbers.
  ///
  /// Stratified and plain k-fold cut the rows in the order given, unshuffled, as
  /// `GridSearchCV(cv=5)` cuts `X[train]`; time-series chains forward over the rows sorted by time.
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
    switch tune.inner {
    case .stratifiedKFold:
      let labels = rows.gathering(dataset.labels)
      var counts = [Int](repeating: 0, count: dataset.classes.count)
      for label in labels { counts[label] += 1 }
      if let largest = counts.max(), largest < k {
        throw fail("\(k) stratified inner folds need a class with \(k) rows; in \(place) the largest has \(largest)")
      }
      var generator: SeededGenerator? = nil
      return FoldPlan.foldsFromAssignment(
        FoldPlan.stratifiedAssignment(labels: labels, k: k, generator: &generator), k: k, of: rows)
    case .kfold:
      return FoldPlan.contiguousFolds(order: Array(rows.indices), k: k, firstIndex: 0, repeatIndex: 0, of: rows)
    case .timeSeries:
      guard let time = dataset.time else { throw fail("time-series inner folds need a time column") }
      let listed = rows.map { $0 }
      let order = listed.indices.sorted {
        time[listed[$0]] < time[listed[$1]] || (time[listed[$0]] == time[listed[$1]] && $0 < $1)
      }
      let testSize = rows.count / (k + 1)
      guard testSize >= 1 else { throw fail("\(k) forward-chaining inner folds need \(k + 1) rows in \(place)") }
      return FoldPlan.forwardChaining(
        order.map { Int32(truncatingIfNeeded: listed[$0]) }, k: k, testSize: testSize)
    }
  }
}
