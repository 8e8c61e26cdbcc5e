import BenchbookData
import BenchbookModels
import BenchbookSpec

/// A transform or model that overflows must stop the run with what overflowed, not leave NaN to surface
/// later as an unplaced encoder error or a meaningless score.
extension FoldEvaluator {
  /// Fails when a model's arithmetic would overflow on the training rows: a standardisation whose mean or
  /// standard deviation is not finite (which would turn the column into NaN, or silently into zeros), or
  /// a column whose squares sum past the largest double (every model's centring, covariance or distance
  /// would then hold infinities or NaN, and LAPACK refuses those).
  /// - Parameters:
  ///   - prepared: the transformed training rows.
  ///   - rawRows: the dataset's rows they were gathered from, in order (read for the value to name).
  func checkPrepared(
    _ preprocessing: FittedPreprocessing, _ prepared: Matrix, rawRows: RowIndices, model: ModelSpec, fold: Int?
  ) throws(ModelFailure) {
    if let empty = preprocessing.imputer?.unfitted {
      throw ModelFailure(
        label: model.label, fold: fold,
        error: ModelError(
          "feature '\(empty.name)' has no value in any of the \(empty.missingInTraining) training rows, so "
            + "strategy \(empty.strategy.rawValue) has nothing to impute from; use `strategy: constant`, or leave "
            + "the feature out"),
        location: empty.location)
    }
    let overflowed = preprocessing.scalers.lazy.compactMap { scaler in
      scaler.mean.indices.first { !scaler.mean[$0].isFinite || !scaler.scale[$0].isFinite }
    }.first
    // Rows as the dataset holds them, whose squares stay finite over every row, stay finite over any subset.
    if fitsRowsAsTheyAre { return }
    let squares = overflowed == nil ? Self.columnSquares(prepared) : []
    guard let column = overflowed ?? squares.firstIndex(where: { !$0.isFinite }) else { return }
    var largest = 0.0
    var largestRow = rawRows.first ?? 0
    for row in rawRows where abs(dataset.x[row, column]) > largest {
      largest = abs(dataset.x[row, column])
      largestRow = row
    }
    let value = dataset.x[largestRow, column]
    let place = "a value as large as \(value)" + (lineOfValue(value, column: column).map { " (data line \($0))" } ?? "")
    let message =
      overflowed != nil
      ? "standardize overflows on column '\(dataset.columnNames[column])': \(place) has no finite mean and "
        + "variance in 64-bit floating point; rescale the feature"
      : "column '\(dataset.columnNames[column])' is too large for the model's arithmetic: \(place) overflows "
        + "64-bit floating point when squared; rescale the feature"
    throw ModelFailure(label: model.label, fold: fold, error: ModelError(message), location: model.location)
  }

  /// Each column's sum of squares over the rows, in row order.
  ///
  /// Every fit with preprocessing pays for this pass, so it reads the buffer directly: element by element through
  /// the matrix's subscript it doubled a Gaussian NB fit (the same sums, in the same order).
  static func columnSquares(_ x: Matrix) -> [Double] {
    var squares = [Double](repeating: 0, count: x.columns)
    let columns = x.columns
    x.values.withUnsafeBufferPointer { values in
      squares.withUnsafeMutableBufferPointer { squares in
        for r in 0..<x.rows {
          for c in 0..<columns { squares[c] += values[r * columns + c] * values[r * columns + c] }
        }
      }
    }
    return squares
  }

  /// Fails when a model gave a probability that is not a number.
  /// - Parameter testRows: the dataset rows the probabilities are for, in order.
  func checkProbabilities(_ probabilities: Matrix, testRows: RowIndices, model: ModelSpec, fold: Int?)
    throws(ModelFailure)
  {
    guard let (row, column) = Self.firstNonFinite(probabilities) else { return }
    let line = testRows.indices.contains(row) ? dataset.lineNumbers[testRows[row]] : nil
    throw ModelFailure(
      label: model.label, fold: fold,
      error: ModelError(
        "its prediction failed: it gave the probability \(probabilities[row, column]) for class "
          + "'\(dataset.classes[column])'"
          + (line.map { " of the row at data line \($0)" } ?? "")
          + "; its arithmetic overflowed, most likely on a feature value too large for it"),
      location: model.location)
  }

  /// The first place of a value that is NaN or infinite.
  static func firstNonFinite(_ matrix: Matrix) -> (row: Int, column: Int)? {
    guard let index = matrix.values.firstIndex(where: { !$0.isFinite }) else { return nil }
    return (index / matrix.columns, index % matrix.columns)
  }

  /// The data line of the first row holding `value` in `column`.
  private func lineOfValue(_ value: Double, column: Int) -> Int? {
    (0..<dataset.x.rows).first { dataset.x[$0, column] == value }.map { dataset.lineNumbers[$0] }
  }
}
