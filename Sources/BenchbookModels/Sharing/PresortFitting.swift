import BenchbookData

/// A classifier whose fit can start from features sorted once for every row (`FeaturePresort`), filtered to a
/// fold's rows, instead of sorting the fold's gathered rows: the `sharedPresort` fold strategy.
public protocol PresortFitting: Classifier {
  /// `fit` on the rows `rows` visits (each at most once) of the matrix `presorted` was sorted from: the model a
  /// fit on those rows gathered would give, bit for bit.
  /// - Parameter labelOfRow: the label of every row of the sorted matrix, by row; those `rows` visits are in
  ///   `0..<classCount`.
  func fit(presorted: FeaturePresort, rows: FeaturePresort.RowRuns, labelOfRow: [Int], classCount: Int)
    throws(ModelError) -> Fitted

  /// `Classifier.sharedFits` on the rows `rows` visits, from the sorted features: the same models, bit for bit.
  /// - Parameters:
  ///   - x: those rows gathered in the order `rows` visits them, for what the sorted lists cannot give.
  ///   - labels: their labels, in that order; every class in `0..<classCount` occurs.
  static func sharedFits(
    _ configurations: [Self], presorted: FeaturePresort, rows: FeaturePresort.RowRuns, labelOfRow: [Int],
    gathered x: Matrix, labels: [Int], classCount: Int
  ) throws(ModelError) -> [Fitted]
}
