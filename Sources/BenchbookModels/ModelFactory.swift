extension ModelKind {
  /// Builds this algorithm's configuration from spec settings (scikit-learn names).
  ///
  /// - Throws: `SettingError` naming the key of an unknown or invalid setting.
  public func makeClassifier(settings: inout SettingsReader) throws(SettingError) -> any Classifier {
    switch self {
    case .logisticRegression: try LogisticRegression(settings: &settings)
    case .lda: try LinearDiscriminantAnalysis(settings: &settings)
    case .knn: try KNearestNeighbors(settings: &settings)
    case .decisionTree: try DecisionTree(settings: &settings)
    case .gaussianNB: try GaussianNaiveBayes(settings: &settings)
    }
  }
}
