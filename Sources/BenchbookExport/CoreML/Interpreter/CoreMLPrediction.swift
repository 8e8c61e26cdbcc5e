/// What a classifier returns: the predicted class and every class's probability.
public struct CoreMLPrediction: Sendable, Equatable {
  /// The predicted class, as text (`"1"`, `"setosa"`).
  public var label: String
  /// Class label text → probability.
  public var probabilities: [String: Double]

  public init(label: String, probabilities: [String: Double]) {
    self.label = label
    self.probabilities = probabilities
  }
}
