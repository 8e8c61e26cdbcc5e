/// The missing-value policy over the columns a spec uses: which rows are kept, and for which column the others
/// were dropped.
///
/// The one place where a missing cell decides its row's fate. A policy that keeps such rows (imputation fitted
/// inside the folds) changes only this: keep the row and leave the cell `NaN` in its numbers for the fitted step
/// to fill. Each column's missing count over all rows read stays in its `ColumnProfile` (`missingCount`), and
/// each feature's in `FeatureSummary.missingCount`, whatever the policy did.
struct MissingRows {
  /// Rows kept, ascending.
  let kept: [Int]
  /// Rows dropped, counted against the first column (in the order checked) missing a value in them.
  let droppedByColumn: [String: Int]

  /// Applies `policy` to `columns`, the slots of the used columns in spec order (target, features, time), a
  /// row at a time.
  /// - Throws: under `.error`, a `DataError` at the first row missing a value, naming its first such column.
  /// - Parameter imputes: whether some feature is imputed (its columns are not among `columns`): the error then
  ///   says the column checked is not one of them.
  /// - Parameter columnFeatures: the slots read as a column feature, each with whether it is categorical, so the
  ///   error suggests an imputation the next run accepts: `most_frequent` for a category (a median fills only
  ///   numbers), none for the target, the time column or an expression's input (imputation fills none of them).
  init(
    _ policy: MissingPolicy, store: ColumnStore, columns: [Int], imputes: Bool = false,
    columnFeatures: [Int: Bool] = [:]
  ) throws(DataError) {
    let masks = columns.map { store.profile($0).missing }
    var kept: [Int] = []
    kept.reserveCapacity(store.rowCount)
    var droppedBySlot = [Int](repeating: 0, count: columns.count)
    for row in 0..<store.rowCount {
      guard let first = masks.firstIndex(where: { $0[row] }) else {
        kept.append(row)
        continue
      }
      if policy == .error {
        let slot = columns[first]
        let text = store.cellText(slot, row: row)
        let shown = text.isEmpty ? "an empty field" : "'\(text)'"
        let notCovered =
          " (imputation fills only the column features it covers: not the target, the time column or expressions)"
        let hint: String =
          switch imputes ? nil : columnFeatures[slot] {
          case nil: notCovered
          case true?:
            ", or impute them inside the folds with `preprocess: [{impute: {strategy: most_frequent}}]` (the column "
              + "is categorical: a median or mean fills only numbers; `{strategy: constant, fill_value: …}` also fills "
              + "categories)"
          case false?: ", or impute them inside the folds with `preprocess: [{impute: {strategy: median}}]`"
          }
        throw DataError(
          .missingValue, at: store.location(row: row), column: store.name(slot),
          "missing value (\(shown)); set `missing: drop` to drop rows with missing values" + hint)
      }
      droppedBySlot[first] += 1
    }
    var droppedByColumn: [String: Int] = [:]
    for (index, slot) in columns.enumerated() where droppedBySlot[index] > 0 {
      droppedByColumn[store.name(slot)] = droppedBySlot[index]
    }
    self.kept = kept
    self.droppedByColumn = droppedByColumn
  }
}
