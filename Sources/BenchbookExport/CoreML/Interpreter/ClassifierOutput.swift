/// How every Core ML classifier reports: the most probable class (ties to the
/// first in label order) and a dictionary of all class probabilities.
struct ClassifierOutput: Sendable {
  let labels: ClassLabels
  let labelName: String
  let probabilitiesName: String

  init(labels: ClassLabels?, description: ModelDescription) throws(EvaluationError) {
    guard let labels, labels.count > 0 else { throw EvaluationError("the classifier has no class labels") }
    guard !description.predictedFeatureName.isEmpty else {
      throw EvaluationError("the classifier names no predicted feature")
    }
    self.labels = labels
    labelName = description.predictedFeatureName
    probabilitiesName = description.predictedProbabilitiesName
  }

  /// Writes the label and probabilities; `probabilities` follows label order.
  func write(_ probabilities: [Double], to features: inout [String: FeatureValue]) {
    var best = 0
    for c in probabilities.indices where probabilities[c] > probabilities[best] { best = c }
    switch labels {
    case .strings(let values): features[labelName] = .string(values[best])
    case .int64s(let values): features[labelName] = .int64(values[best])
    }
    if !probabilitiesName.isEmpty {
      var dictionary: [String: Double] = [:]
      for (text, probability) in zip(labels.texts, probabilities) { dictionary[text, default: 0] += probability }
      features[probabilitiesName] = .dictionary(dictionary)
    }
  }
}
