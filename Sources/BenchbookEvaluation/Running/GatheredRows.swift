import BenchbookData

/// Rows gathered from a dataset together with the fingerprint of exactly the
/// rows gathered. Preprocessing can only be fitted on a value of this type, so
/// the record of what a transform saw is made where the data is gathered and
/// cannot drift from it.
public struct GatheredRows: Sendable {
  public let x: Matrix
  public let labels: [Int]
  public let fingerprint: RowSetFingerprint
  /// The dataset's rows that `x` holds, in order: where a value before preprocessing can be read again once the
  /// rows have been transformed in place.
  public let rows: RowIndices

  /// Columns of room a transform rewriting `x` keeps after its rows (`Matrix.selecting(rows:roomForColumns:)`).
  public let roomForColumns: Int
  /// Whether `x` is the dataset's own matrix (`init(allOf:)`), which a transform copies before rewriting it.
  public let sharesDatasetMatrix: Bool

  /// Copies `rows` of `dataset`, in the order given.
  /// - Parameter room: columns of room left after the rows for a fit that appends them (`ModelTraits.appendedColumns`).
  public init(_ dataset: Dataset, rows: RowIndices, roomForColumns room: Int = 0) {
    roomForColumns = room
    sharesDatasetMatrix = false
    x = dataset.x.selecting(rows: rows, roomForColumns: room)
    labels = rows.gathering(dataset.labels)
    fingerprint = RowSetFingerprint(rows)
    self.rows = rows
  }

  /// Every row, in order, without copying the matrix; a transform copies it (with `room`) before rewriting it.
  public init(allOf dataset: Dataset, roomForColumns room: Int = 0) {
    roomForColumns = room
    sharesDatasetMatrix = true
    x = dataset.x
    labels = dataset.labels
    fingerprint = RowSetFingerprint(0..<dataset.x.rows)
    rows = RowIndices(all: dataset.x.rows)
  }
}
