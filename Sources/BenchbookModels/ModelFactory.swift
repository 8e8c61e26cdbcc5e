extension ModelKind {
  /// The classifier type that implements this algorithm: the one place a new model is registered.
  public var classifierType: any Classifier.Type {
    switch self {
    case .logisticRegression: LogisticRegression.self
    case .lda: LinearDiscriminantAnalysis.self
    case .knn: KNearestNeighbors.self
    case .decisionTree: DecisionTree.self
    case .gaussianNB: GaussianNaiveBayes.self
    }
  }

  /// Builds this algorithm's configuration from spec settings (scikit-learn names).
  ///
  /// - Throws: `SettingError` naming the key of an unknown or invalid setting.
  public func makeClassifier(settings: inout SettingsReader) throws(SettingError) -> any Classifier {
    try classifierType.init(settings: &settings)
  }

  /// The algorithm's settings schema.
  public var settingsSchema: [SettingDescriptor] { classifierType.settingsSchema }

  /// The schema entry a spec key names, by scikit-learn name or alias.
  public func setting(named key: String) -> SettingDescriptor? {
    classifierType.setting(named: key)
  }
}
