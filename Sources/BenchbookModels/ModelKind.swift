/// The five algorithms Benchbook compares, with the names a spec may use for them.
public enum ModelKind: String, CaseIterable, Sendable, Codable, Hashable {
  case logisticRegression = "logistic_regression"
  case lda
  case knn
  case decisionTree = "decision_tree"
  case gaussianNB = "gaussian_nb"

  /// The short label a model gets when the spec gives none.
  public var defaultLabel: String {
    switch self {
    case .logisticRegression: "LR"
    case .lda: "LDA"
    case .knn: "KNN"
    case .decisionTree: "DT"
    case .gaussianNB: "NB"
    }
  }

  /// Every name that selects this algorithm: its id and the usual abbreviations.
  public var names: [String] {
    switch self {
    case .logisticRegression: ["logistic_regression", "LR"]
    case .lda: ["lda", "LDA"]
    case .knn: ["knn", "KNN", "KNC"]
    case .decisionTree: ["decision_tree", "DT", "DTC", "CART"]
    case .gaussianNB: ["gaussian_nb", "NB", "GNB"]
    }
  }

  /// Human name for reports.
  public var displayName: String {
    switch self {
    case .logisticRegression: "logistic regression"
    case .lda: "linear discriminant analysis"
    case .knn: "k-nearest neighbours"
    case .decisionTree: "decision tree"
    case .gaussianNB: "Gaussian naive Bayes"
    }
  }

  /// Whether the fitted model depends on the order of its training rows beyond the order of floating-point
  /// sums: k-nearest neighbours gives a distance tie to the earlier training row. A tree's splits depend only
  /// on the values, and the linear models and naive Bayes only sum over rows, so for them rows may be handed
  /// over in whichever order is cheaper to gather.
  public var fitDependsOnRowOrder: Bool { self == .knn }

  /// Looks a name up case-insensitively among every algorithm's names.
  public init?(name: String) {
    let wanted = name.lowercased()
    guard let kind = Self.allCases.first(where: { $0.names.contains { $0.lowercased() == wanted } }) else {
      return nil
    }
    self = kind
  }
}

extension ModelKind: CustomStringConvertible {
  /// The id results files write.
  public var description: String { rawValue }
}
