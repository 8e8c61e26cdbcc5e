extension LinearDiscriminantAnalysis {
  /// LDA: reads a fold's rows in place and holds only their centred copy (beside the transpose the SVD takes);
  /// handed gathered rows (with preprocessing) it centres and transposes them in place and holds those alone, so
  /// `workingCopies` overstates such a fold by one copy (scheduling only).
  public static let descriptor = ModelDescriptor(
    id: "lda", abbreviations: ["LDA"], scikitLearnName: "LinearDiscriminantAnalysis",
    displayName: "linear discriminant analysis", defaultLabel: "LDA", inDefaultSet: true, classifierType: Self.self,
    traits: ModelTraits(
      rowOrder: .independent(tolerance: 1e-12), rewritesItsRows: false, workingCopies: 2, relativeCost: 2,
      appendedColumns: 0,
      updatableFormats: [], sharedWork: [], sharedFitTolerance: 0),
    foldStrategy: .inPlace, storedSize: .fixed, exportForm: .linear)
}
