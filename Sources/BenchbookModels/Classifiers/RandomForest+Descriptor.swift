extension RandomForest {
  /// Bootstrap draws pick rows by position, so the forest depends on the rows' order; its folds gather their rows
  /// (each tree sorts its own sample); no configurations share work.
  public static let descriptor = ModelDescriptor(
    id: "random_forest", abbreviations: ["RF", "RFC"], scikitLearnName: "RandomForestClassifier",
    displayName: "random forest", defaultLabel: "RF", inDefaultSet: false, classifierType: Self.self,
    traits: ModelTraits(
      // The gathered rows, plus a tree's sample, rounded values and sorted lists on each core.
      rowOrder: .dependsOnOrder, rewritesItsRows: false, workingCopies: 4, relativeCost: 60, appendedColumns: 0,
      updatableFormats: [], sharedWork: [], sharedFitTolerance: 0),
    foldStrategy: .gathered, storedSize: .treeNodes, exportForm: .treeEnsemble)
}
