import BenchbookData

/// The app-facing inputs, one per spec feature, and where each lands in the
/// design matrix the classifier was fitted on: every format's files take the
/// features in spec order, which must be the design matrix's column order.
///
/// A numeric feature fills one column; a categorical one (passed as an int64 or
/// string category, or as its index) spreads over one column per category.
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
        throw ExportError("feature names must be distinct and non-empty to become a file's inputs ('\(feature.name)')")
      }
      guard feature.columns.lowerBound == next else {
        throw ExportError(
          "feature '\(feature.name)' occupies columns \(feature.columns), not the next ones (\(next)…); "
            + "the files take the features in order")
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
}
