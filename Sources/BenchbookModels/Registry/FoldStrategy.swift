/// How a model's cross-validation folds are fitted: the decision the scheduler takes for cross-validation and the
/// audit's refits alike (`FoldScheduler`). Each strategy gives results bit-identical to gathering the fold's rows
/// and fitting on them, so it changes time and memory only.
///
/// A strategy that needs model-specific code reaches it through a protocol the model adopts; the descriptor's
/// `problems` (checked at registration and by the conformance suite) says when it does not.
public enum FoldStrategy: Sendable, Hashable {
  /// Each fold gathers its training rows into a matrix of its own and fits on it.
  case gathered
  /// Each fold reads its training rows where they are, without a gathered copy (`RowSubsetFitting`).
  case inPlace
  /// The folds filter features sorted once for every row instead of each sorting its own (`PresortFitting`).
  case sharedPresort
  /// The folds search one kd-tree over every row instead of each building its own (`SharedNeighborSearch`).
  case sharedNeighborTree

  /// Whether `type` adopts the protocol this strategy reaches the model through.
  public func isServed(by type: any Classifier.Type) -> Bool {
    switch self {
    case .gathered: true
    case .inPlace: type is any RowSubsetFitting.Type
    case .sharedPresort: type is any PresortFitting.Type
    case .sharedNeighborTree: type is any SharedNeighborSearch.Type
    }
  }
}

/// What a model's stored numbers, and so its exported file, grow with: how the report explains its size.
public enum StoredSize: Sendable, Hashable {
  /// Weights per feature and class: the size does not grow with the data.
  case fixed
  /// Every training row: the file grows with the data, and prediction with the rows searched.
  case trainingRows
  /// Its tree's nodes: unlimited, the file grows with the data.
  case treeNodes
}
