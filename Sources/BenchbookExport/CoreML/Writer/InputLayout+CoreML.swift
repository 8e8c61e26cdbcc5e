import BenchbookData
import BenchbookModels
import Foundation

/// The Core ML inputs: a `double` for a numeric feature, an `int64` or `string` category for a categorical
/// one, which the pipeline's one-hot encoder spreads over its columns.
extension InputLayout {
  /// The app-facing input descriptions, in spec order. An input the file imputes also says how the app passes
  /// a missing value and what the file puts in its place, since the sentinel is the app's to send: Xcode shows
  /// these descriptions in the model's interface.
  /// - Parameter imputer: the fitted imputer the file carries, if any.
  func featureDescriptions(imputer: FittedImputer? = nil) -> [FeatureDescription] {
    inputs.map { input in
      let fill = imputer?.fills.first { $0.name == input.summary.name }
      if let labelType = input.labelType {
        let categories = input.summary.categories ?? []
        return FeatureDescription(
          name: input.name,
          shortDescription: Self.categoricalText(categories) + Self.missingText(fill, categories, labelType),
          type: labelType.featureType)
      }
      return FeatureDescription(
        name: input.name, shortDescription: Self.numericText(input.summary) + Self.missingText(fill, nil, nil),
        type: CoreMLFeatureType(.double))
    }
  }

  /// What an imputed input's description adds: the sentinel (NaN for a number, "" for a text category) and the
  /// fill (a number's value, a category's most frequent); nothing for an input the file does not impute.
  static func missingText(_ fill: FittedImputer.Fill?, _ categories: [String]?, _ labelType: LabelType?) -> String {
    guard let fill else { return "" }
    guard let categories, let labelType else {
      let source =
        switch fill.strategy {
        case .mean: "the training rows' mean"
        case .median: "the training rows' median"
        case .mostFrequent: "the training rows' most frequent value"
        case .constant: "the spec's constant"
        }
      return " When missing, pass NaN: the model uses \(Self.fillText(fill.values[0])), \(source)."
    }
    guard let chosen = fill.hotColumn, chosen < categories.count else { return "" }
    return " When missing, pass \(MissingSentinel.written(for: labelType)): the model uses '\(categories[chosen])'."
  }

  /// A number fill as the app reads it: whole numbers as they are, others to six significant digits.
  static func fillText(_ value: Double) -> String {
    value == value.rounded() ? NumberText.short(value) : String(format: "%.6g", value)
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
