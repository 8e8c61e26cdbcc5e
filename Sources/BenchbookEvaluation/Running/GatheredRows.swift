import BenchbookData

/// Rows gathered from a dataset together with the fingerprint of exactly the
/// rows gathered. Preprocessing can only be fitted on a value of this type, so
/// the record of what a transform saw is made where the data is gathered and
/// cannot drift from it.
public struct GatheredRows: Sendable {
  public let x: Matrix
  public let labels: [Int]
  public let fingerprint: RowSetFingerprint

  /// Copies `rows` of `dataset`, in the order given.
  public init(_ dataset: Dataset, rows: RowIndices) {
    x = dataset.x.selecting(rows: rows)
    labels = rows.gathering(dataset.labels)
    fingerprint = RowSetFingerprint(rows)
  }

  /// Every row, in order, without copying the matrix.
  public init(allOf dataset: Dataset) {
    x = dataset.x
    labels = dataset.labels
    fingerprint = RowSetFingerprint(0..<dataset.x.rows)
  }
}
