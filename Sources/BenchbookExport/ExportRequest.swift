import BenchbookData
import BenchbookModels

/// Everything an export needs: the app-facing inputs, the fitted preprocessing
/// and classifier, the classes, and what to say about the model.
public struct ExportRequest: Sendable {
  /// The spec's features in spec order (`Dataset.features`): each becomes one
  /// input the app passes by name, and together they describe the design matrix.
  public var features: [FeatureSummary]
  /// Class labels in the classifier's column order (`Dataset.classes`).
  public var classes: [String]
  /// Standardisations fitted with the classifier, applied in order to the encoded columns.
  public var scalers: [FittedStandardScaler]
  public var classifier: any FittedClassifier
  public var metadata: ExportMetadata
  /// Write an updatable model (k-nearest neighbours only) that an app can extend with its user's examples.
  public var updatable: Bool

  public init(
    features: [FeatureSummary], classes: [String], scalers: [FittedStandardScaler], classifier: any FittedClassifier,
    metadata: ExportMetadata, updatable: Bool = false
  ) {
    self.features = features
    self.classes = classes
    self.scalers = scalers
    self.classifier = classifier
    self.metadata = metadata
    self.updatable = updatable
  }
}
