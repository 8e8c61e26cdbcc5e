/// When a feature's value becomes known, relative to the moment a prediction
/// is made. A model may only use what is known before it predicts; a feature
/// known later (the departure delay when predicting at booking time, the
/// backer count of a campaign still running) leaks the outcome.
public enum FeatureAvailability: String, Sendable, Hashable, Codable, CaseIterable {
  /// Known when the prediction is made: a legitimate input.
  case beforePrediction = "before-prediction"
  /// Known only after the prediction is made, though before the outcome.
  case afterPrediction = "after-prediction"
  /// Known only once the outcome itself is known.
  case afterOutcome = "after-outcome"

  /// Whether a model using the feature sees something it could not have had.
  public var isLeak: Bool { self != .beforePrediction }
}

/// A per-row time read from a column or computed by an expression (Unix
/// seconds), with where the spec gave it: a feature's `available_at` or the
/// spec's `predict_at`.
public struct AvailabilityTime: Sendable, Hashable {
  public var source: FeatureDefinition.Source
  public var location: SourceLocation

  public init(source: FeatureDefinition.Source, location: SourceLocation) {
    self.source = source
    self.location = location
  }
}
