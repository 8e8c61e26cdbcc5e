extension HistGradientBoosting {
  /// Histogram gradient boosting: its fit depends on the order of its rows (the early-stopping split picks rows
  /// by position, above 200,000 rows so does the binning's subsample, and histogram sums in another order can
  /// break a near-tie between splits another way), so folds gather their rows in order and fit one by one.
  public static let descriptor = ModelDescriptor(
    id: "hist_gradient_boosting", abbreviations: ["HGB", "HGBC"], scikitLearnName: "HistGradientBoostingClassifier",
    displayName: "histogram gradient boosting", defaultLabel: "HGB", inDefaultSet: false, classifierType: Self.self,
    traits: ModelTraits(
      // The gathered rows (their training part copied when early stopping holds rows out), the bins (a byte per
      // value) and the partitioned rows of a tree; a hundred iterations of histogram trees.
      rowOrder: .dependsOnOrder, rewritesItsRows: false, workingCopies: 2, relativeCost: 20,
      appendedColumns: 0, updatableFormats: [], sharedWork: [], sharedFitTolerance: 0),
    foldStrategy: .gathered, storedSize: .treeNodes, exportForm: .treeEnsemble)
}

extension HistGradientBoosting: NativeMissingValues {}
