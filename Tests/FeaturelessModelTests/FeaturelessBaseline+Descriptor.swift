import BenchbookModels

extension FeaturelessBaseline {
  /// Fits in one pass over the labels, independent of row order (class counts are exact); nothing to share.
  static let descriptor = ModelDescriptor(
    id: "featureless", abbreviations: ["FL", "prior"], scikitLearnName: "DummyClassifier",
    displayName: "featureless baseline", defaultLabel: "FL", inDefaultSet: false, classifierType: Self.self,
    traits: ModelTraits(
      rowOrder: .independent(tolerance: 0), rewritesItsRows: false, workingCopies: 1, relativeCost: 1,
      appendedColumns: 0,
      updatableFormats: [], sharedWork: [], sharedFitTolerance: 0),
    foldStrategy: .gathered, storedSize: .fixed, exportForm: .linear)
}
