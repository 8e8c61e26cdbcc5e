/// How a feature's missing values are filled: scikit-learn's `SimpleImputer` settings, as the spec declares them
/// (`preprocess: [{impute: {…}}]` for every feature, or `impute:` under one feature's own entry).
///
/// A feature with an imputation keeps its rows when a value is missing: the loader leaves the cell `NaN` (every
/// one-hot column of a categorical feature `NaN`), and the imputer fitted on each training fold fills it. The
/// missing-value policy (`missing: error | drop`) still governs the target, the time column and every feature
/// without one.
public struct Imputation: Sendable, Hashable, Codable {
  public enum Strategy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The training fold's mean of the values present (numeric features).
    case mean
    /// Their median, the mean of the two middle values for an even count (numeric features).
    case median
    /// The most frequent value or category; the smallest of equally frequent ones, as scikit-learn picks.
    case mostFrequent = "most_frequent"
    /// `fillValue`, whatever the fold holds.
    case constant

    /// Whether the strategy applies to categories.
    public var fillsCategories: Bool { self == .mostFrequent || self == .constant }
  }

  /// scikit-learn's default `fill_value` for text: the category a constant imputation adds.
  public static let defaultCategory = "missing_value"

  public var strategy: Strategy
  /// As written in the spec: a number for numeric features, a category for categorical ones; `nil` is
  /// scikit-learn's default (0, or `missing_value`).
  public var fillValue: String?
  /// Whether a 0/1 column per feature that misses values in the training fold is appended (`MissingIndicator`).
  public var addIndicator: Bool
  /// Where the spec declares it, for errors at fitting time.
  public var location: SourceLocation

  public init(strategy: Strategy, fillValue: String? = nil, addIndicator: Bool = false, location: SourceLocation) {
    self.strategy = strategy
    self.fillValue = fillValue
    self.addIndicator = addIndicator
    self.location = location
  }

  /// The number a constant imputation writes into a numeric feature, or `nil` when `fillValue` is not one.
  public var numericFill: Double? {
    guard let fillValue else { return 0 }
    return Double(fillValue).flatMap { $0.isFinite ? $0 : nil }
  }

  /// The category a constant imputation writes into a categorical feature.
  public var categoricalFill: String { fillValue ?? Self.defaultCategory }

  /// The settings as the spec's canonical definition writes them: `impute(strategy=median,add_indicator=true)`.
  public var definition: String {
    var parts = ["strategy=\(strategy.rawValue)"]
    if let fillValue { parts.append("fill_value=\(fillValue)") }
    if addIndicator { parts.append("add_indicator=true") }
    return "impute(\(parts.joined(separator: ",")))"
  }

  /// The settings in words, for reports: `median, with a missing indicator`.
  public var description: String {
    var text =
      switch strategy {
      case .mean: "the training fold's mean"
      case .median: "the training fold's median"
      case .mostFrequent: "the training fold's most frequent value"
      case .constant: "the constant \(fillValue.map { "`\($0)`" } ?? "0 (or `\(Self.defaultCategory)`)")"
      }
    if addIndicator { text += ", with a missing indicator" }
    return text
  }
}
