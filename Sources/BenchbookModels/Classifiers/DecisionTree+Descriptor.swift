extension DecisionTree {
  /// CART: splits depend on values alone, so row order does not matter; its folds filter one presort of every
  /// row; configurations differing in depth share one tree.
  public static let descriptor = ModelDescriptor(
    id: "decision_tree", abbreviations: ["DT", "DTC", "CART"], scikitLearnName: "DecisionTreeClassifier",
    displayName: "decision tree", defaultLabel: "DT", inDefaultSet: true, classifierType: Self.self,
    traits: ModelTraits(
      // Its rounded values and sorted lists beside the gathered rows.
      rowOrder: .independent(tolerance: 0), rewritesItsRows: false, workingCopies: 2, relativeCost: 5,
      appendedColumns: 0,
      updatableFormats: [], sharedWork: [.configurations], sharedFitTolerance: 0),
    foldStrategy: .sharedPresort, storedSize: .treeNodes, exportForm: .tree)
}

extension DecisionTree: PresortFitting {}
