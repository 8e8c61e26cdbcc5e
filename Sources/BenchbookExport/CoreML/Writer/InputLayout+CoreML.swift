import BenchbookData

/// The Core ML inputs: a `double` for a numeric feature, an `int64` or `string` category for a categorical
/// one, which the pipeline's one-hot encoder spreads over its columns.
extension InputLayout {
  /// The app-facing input descriptions, in spec order.
  var featureDescriptions: [FeatureDescription] {
    inputs.map { input in
      if let labelType = input.labelType {
        return FeatureDescription(
          name: input.name, shortDescription: Self.categoricalText(input.summary.categories ?? []),
          type: labelType.featureType)
      }
      return FeatureDescription(
        name: input.name, shortDescription: Self.numericText(input.summary), type: CoreMLFeatureType(.double))
    }
  }

  static func numericText(_ summary: FeatureSummary) -> String {
    guard let minimum = summary.minimum, let maximum = summary.maximum else { return "Numeric." }
    return "Numeric; \(NumberText.short(minimum)) to \(NumberText.short(maximum)) in the training data."
  }

  static func categoricalText(_ categories: [String]) -> String {
    let shown = 30
    var text = "One of: " + categories.prefix(shown).joined(separator: ", ")
    if categories.count > shown { text += ", … (\(categories.count) categories)" }
    return text + ". Any other value is an error."
  }
}
