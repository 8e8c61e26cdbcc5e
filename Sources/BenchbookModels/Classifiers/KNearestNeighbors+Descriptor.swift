import BenchbookData

extension KNearestNeighbors {
  /// k-nearest neighbours: a distance tie goes to the earlier training row, so row order matters; its folds and a
  /// tuning's splits share one search over every row; Core ML can update it on device (an app adds examples).
  public static let descriptor = ModelDescriptor(
    id: "knn", abbreviations: ["KNN", "KNC"], scikitLearnName: "KNeighborsClassifier",
    displayName: "k-nearest neighbours", defaultLabel: "KNN", inDefaultSet: true, classifierType: Self.self,
    traits: ModelTraits(
      // The search tree over the rows with its boxes, beside the gathered rows.
      rowOrder: .dependsOnOrder, rewritesItsRows: false, workingCopies: 2, relativeCost: 4, appendedColumns: 0,
      updatableFormats: ["coreml"],
      sharedWork: [.configurations, .neighborSearchAcrossSplits], sharedFitTolerance: 0),
    foldStrategy: .sharedNeighborTree, storedSize: .trainingRows, exportForm: .neighbors)
}

extension KNearestNeighbors: SharedNeighborSearch {
  public func neighborIndexKind(rows: Int, features: Int, sparse: Bool) -> NeighborIndexKind {
    resolvedIndex(rows: rows, features: features, sparse: sparse)
  }

  public func probabilities(_ found: NeighborList, labels: [Int], classCount: Int) -> Matrix {
    FittedKNearestNeighbors.probabilities(found, k: k, weights: weights, labels: labels, classCount: classCount)
  }

  public static var queryChunk: Int { FittedKNearestNeighbors.queryChunk }

  public static func shareWriter(_ configurations: [Self], classCount: Int) -> FittedKNearestNeighbors.SharedShares {
    FittedKNearestNeighbors.SharedShares(configurations, classCount: classCount)
  }
}

extension FittedKNearestNeighbors.SharedShares: NeighborShareWriting {}
