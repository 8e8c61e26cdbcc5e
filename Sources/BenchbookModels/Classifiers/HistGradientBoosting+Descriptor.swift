extension HistGradientBoosting {
  /// Histogram gradient boosting: its fit depends on the order of its rows (the early-stopping split picks rows
  /// by position, above 200,000 rows so does the binning's subsample, and histogram sums in another order can
  /// break a near-tie between splits another way), so folds gather their rows in order and fit one by one.
  public static let descriptor = ModelDescriptor(
    id: "hist_gradient_boosting", abbreviations: ["HGB", "HGBC"], scikitLearnName: "HistGradientBoostingClassifier",
    displayName: "histogram gradient boosting", defaultLabel: "HGB", inDefaultSet: false, classifierType: Self.self,
    traits: ModelTraits(
      // The gathered rows, plus the bins (one byte per value) and the partitioned rows of a tree.
      rowOrder: .dependsOnOrder, rewritesItsRows: false, workingCopies: 2, relativeCost: 8,
      appendedColumns: 0, updatableFormats: [], sharedWork: [], sharedFitTolerance: 0),
    foldStrategy: .gathered, storedSize: .treeNodes, exportForm: .treeEnsemble)
}

extension HistGradientBoosting: NativeMissingValues {}
