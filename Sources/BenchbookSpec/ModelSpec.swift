import BenchbookData
import BenchbookModels

/// One model to compare: an algorithm, its settings, and the label that tells
/// it apart from other settings of the same algorithm.
public struct ModelSpec: Sendable {
  public var label: String
  /// The fixed configuration; for a tuned model, the one chosen on all rows once
  /// a run has chosen it (until then, the first configuration of the grid).
  public var classifier: any Classifier
  public var location: SourceLocation
  /// The settings searched over; `nil` when every setting is fixed.
  public var search: SearchSpace?

  /// The algorithm's descriptor: its names, traits and fold strategy.
  public var descriptor: ModelDescriptor { classifier.descriptor }

  /// Whether the spec lists several values for some setting.
  public var isTuned: Bool { search != nil }

  public init(label: String, classifier: any Classifier, location: SourceLocation, search: SearchSpace? = nil) {
    self.label = label
    self.classifier = classifier
    self.location = location
    self.search = search
  }
}
