import BenchbookData
import BenchbookModels

/// One model to compare: an algorithm, its settings, and the label that tells
/// it apart from other settings of the same algorithm.
public struct ModelSpec: Sendable {
  public var label: String
  public var classifier: any Classifier
  public var location: SourceLocation

  public var kind: ModelKind { classifier.kind }

  public init(label: String, classifier: any Classifier, location: SourceLocation) {
    self.label = label
    self.classifier = classifier
    self.location = location
  }
}
