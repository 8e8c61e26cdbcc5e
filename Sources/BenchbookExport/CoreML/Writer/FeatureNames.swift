/// Hands out feature and stage names inside a pipeline, none equal to an app
/// input or to another internal name (Core ML wires pipeline models by name).
struct FeatureNames {
  private var taken: Set<String>
  private var stages: Set<String> = []

  init(reserved: [String]) {
    taken = Set(reserved)
    // The networks' blobs (naive Bayes, updatable logistic regression) share the namespace of their input.
    taken.formUnion([
      NeuralNetworkNames.replicated, NeuralNetworkNames.distances, NeuralNetworkNames.squares,
      NeuralNetworkNames.squaresPerClass, NeuralNetworkNames.sums, NeuralNetworkNames.logits,
      NeuralNetworkNames.probabilities, UpdatableLinearConversion.scores, UpdatableLinearConversion.loss,
    ])
  }

  /// `wanted`, or `wanted_1`, `wanted_2`… if taken.
  mutating func claim(_ wanted: String) -> String {
    var name = wanted
    var suffix = 1
    while taken.contains(name) {
      name = "\(wanted)_\(suffix)"
      suffix += 1
    }
    taken.insert(name)
    return name
  }

  mutating func stage(_ wanted: String) -> String {
    var name = wanted
    var suffix = 1
    while stages.contains(name) {
      name = "\(wanted)_\(suffix)"
      suffix += 1
    }
    stages.insert(name)
    return name
  }
}
