import BenchbookData

/// The app-facing inputs, one per spec feature, and where each lands in the
/// design matrix the classifier was fitted on.
///
/// A numeric feature is a `double` input filling one column; a categorical one
/// is an `int64` or `string` input that a one-hot encoder spreads over one
/// column per category. The feature vectorizer concatenates them in spec
/// order, which must be the design matrix's column order.
struct InputLayout {
  struct Input {
    var summary: FeatureSummary
    /// For categorical inputs: how the app passes the category.
    var labelType: LabelType?

    var name: String { summary.name }
    var width: Int { summary.columns.count }
  }

  let inputs: [Input]
  /// Columns of the design matrix.
  let width: Int

  init(features: [FeatureSummary]) throws(ExportError) {
    guard !features.isEmpty else { throw ExportError("the model has no features to take as inputs") }
    var inputs: [Input] = []
    var next = 0
    var seen = Set<String>()
    for feature in features {
      guard !feature.name.isEmpty, seen.insert(feature.name).inserted else {
        throw ExportError("feature names must be distinct and non-empty to become Core ML inputs ('\(feature.name)')")
      }
      guard feature.columns.lowerBound == next else {
        throw ExportError(
          "feature '\(feature.name)' occupies columns \(feature.columns), not the next ones (\(next)…); "
            + "Core ML's feature vectorizer concatenates inputs in order")
      }
      switch feature.type {
      case .numeric:
        guard feature.columns.count == 1 else {
          throw ExportError("numeric feature '\(feature.name)' spans \(feature.columns.count) columns")
        }
        inputs.append(Input(summary: feature, labelType: nil))
      case .categorical:
        let categories = feature.categories ?? []
        guard !categories.isEmpty, categories.count == feature.columns.count else {
          throw ExportError(
            "categorical feature '\(feature.name)' has \(categories.count) categories for \(feature.columns.count) columns"
          )
        }
        guard Set(categories).count == categories.count else {
          throw ExportError("categorical feature '\(feature.name)' repeats a category")
        }
        inputs.append(Input(summary: feature, labelType: LabelType(labels: categories)))
      }
      next = feature.columns.upperBound
    }
    self.inputs = inputs
    self.width = next
  }

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
