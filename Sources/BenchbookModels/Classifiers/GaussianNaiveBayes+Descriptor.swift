extension GaussianNaiveBayes {
  /// Gaussian naive Bayes: only sums its rows, read in place; one pass of statistics serves every smoothing.
  public static let descriptor = ModelDescriptor(
    id: "gaussian_nb", abbreviations: ["NB", "GNB"], scikitLearnName: "GaussianNB",
    displayName: "Gaussian naive Bayes", defaultLabel: "NB", inDefaultSet: true, classifierType: Self.self,
    traits: ModelTraits(
      rowOrder: .independent(tolerance: 1e-12), rewritesItsRows: false, workingCopies: 1, relativeCost: 1,
      appendedColumns: 0,
      updatableFormats: [], sharedWork: [.configurations], sharedFitTolerance: 0),
    foldStrategy: .inPlace, storedSize: .fixed, exportForm: .gaussian)
}
