import BenchbookData

/// Some rows of a matrix, read where they are: a fold's training rows without the copy a gather makes.
///
/// A fit that only reads its rows in order (sums, means, a centred copy of its own) takes these instead of
/// a gathered matrix; it visits the same rows in the same order, so its numbers are the gathered fit's.
public struct RowSubset: Sendable {
  /// Every row; only those the runs visit belong to the subset.
  public let matrix: Matrix
  /// Rows in the subset: exactly the rows the runs visit (fits check it).
  public let count: Int
  /// The label of every row of `matrix`, by row; those of the subset's rows are in the fit's class range.
  public let labelOfRow: [Int]
  private let runs: @Sendable (_ visit: (Range<Int>) -> Void) -> Void
  /// Whether the subset is every row of `matrix` in order (`init(all:labels:)`): a fit handed the last reference
  /// may then rewrite the matrix's values as its own working copy.
  public let isEveryRow: Bool

  /// - Parameter runs: calls its argument with the subset's rows, run by run, in the fit's order.
  public init(
    _ matrix: Matrix, count: Int, labelOfRow: [Int], runs: @escaping @Sendable (_ visit: (Range<Int>) -> Void) -> Void
  ) {
    self.init(matrix, count: count, labelOfRow: labelOfRow, isEveryRow: false, runs: runs)
  }

  /// Every row of `matrix`, in order.
  public init(all matrix: Matrix, labels: [Int]) {
    let rows = matrix.rows
    self.init(matrix, count: rows, labelOfRow: labels, isEveryRow: true) { visit in if rows > 0 { visit(0..<rows) } }
  }

  private init(
    _ matrix: Matrix, count: Int, labelOfRow: [Int], isEveryRow: Bool,
    runs: @escaping @Sendable (_ visit: (Range<Int>) -> Void) -> Void
  ) {
    precondition(labelOfRow.count == matrix.rows, "one label per row of the matrix")
    self.matrix = matrix
    self.count = count
    self.labelOfRow = labelOfRow
    self.runs = runs
    self.isEveryRow = isEveryRow
  }

  /// Calls `body` with the subset's rows, run by run, in order: a fit loops over each run itself, so the rows
  /// cost one call a run, not one a row.
  public func forEachRun(_ body: (Range<Int>) -> Void) { runs(body) }

  /// Runs `body` with the matrix's values (row-major) and every row's label, for loops over `forEachRun`.
  public func withValuesAndLabels<T>(
    _ body: (_ values: UnsafeBufferPointer<Double>, _ labels: UnsafeBufferPointer<Int>) -> T
  ) -> T {
    matrix.values.withUnsafeBufferPointer { values in labelOfRow.withUnsafeBufferPointer { body(values, $0) } }
  }

  /// The same rows with labels renumbered by `map` (a label's new index), for a fit on the classes present.
  func relabelled(_ map: [Int]) -> RowSubset {
    RowSubset(matrix, count: count, labelOfRow: labelOfRow.map { $0 >= 0 && $0 < map.count ? map[$0] : -1 }, runs: runs)
  }
}

/// A classifier whose fit only reads its rows in order, so that it can read a fold's rows where they are
/// (`RowSubset`) instead of a gathered copy; its `fit(_:labels:classCount:)` is this fit on every row.
public protocol RowSubsetFitting: Classifier {
  /// Learns from the subset's rows, labels in `0..<classCount`; the same callers' guarantees as `fit`.
  /// - Parameter rows: consumed, so that a fit handed the last reference to a gathered matrix may free it early,
  ///   or, when the subset is every row (`isEveryRow`), rewrite it as its own working copy (LDA).
  func fit(_ rows: consuming RowSubset, classCount: Int) throws(ModelError) -> Fitted
}

extension RowSubsetFitting {
  /// `fitPresentClasses` on the subset's rows, read in place.
  public func fitPresentClasses(_ rows: RowSubset, classCount: Int) throws(ModelError) -> any FittedClassifier {
    guard rows.count > 0 else { throw ModelError("the training fold has no rows") }
    var present = [Bool](repeating: false, count: classCount)
    rows.labelOfRow.withUnsafeBufferPointer { labels in
      rows.forEachRun { run in for row in run { present[labels[row]] = true } }
    }
    let classes = PresentClasses(present: present)
    if let single = classes.singleClassModel { return single }
    guard classes.count < classCount else { return try fit(rows, classCount: classCount) }
    var map = [Int](repeating: -1, count: classCount)
    for (newIndex, oldIndex) in classes.classes.enumerated() { map[oldIndex] = newIndex }
    return classes.widened(try fit(rows.relabelled(map), classCount: classes.count))
  }
}
