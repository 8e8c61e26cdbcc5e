import BenchbookData

/// A classifier whose fit can start from another fit's learned weights, reaching the optimum a cold start reaches
/// in fewer steps (`SharedWork.warmStart`): the leak audit's drop-column screen refits without one feature from the
/// full model's weights on the other features.
public protocol WarmStartFitting: Classifier {
  /// `start`'s weights on `columns` only, as the starting point of a fit on those columns with `classCount`
  /// classes; `nil` when `start` cannot seed one (another kind of model, another class set).
  func warmStart(from start: any FittedClassifier, keepingColumns columns: [Int], classCount: Int) -> Fitted?

  /// `fit`, starting from `start` (`nil`: from where `fit` starts).
  func fit(_ x: consuming Matrix, labels: [Int], classCount: Int, from start: Fitted?) throws(ModelError) -> Fitted
}
