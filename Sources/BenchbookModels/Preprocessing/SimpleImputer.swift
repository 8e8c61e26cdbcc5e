import BenchbookData

/// scikit-learn's `SimpleImputer` over the design matrix, with `MissingIndicator` columns when asked.
///
/// Fitted on each training fold only, like the scaler: a fold's statistics never see its test rows. A numeric
/// feature is one column; a categorical feature is its one-hot columns, all `NaN` in a row whose category is
/// missing, filled with the one-hot row of the chosen category.
public struct SimpleImputer: Sendable, Hashable {
  /// One imputed feature: its columns and its settings.
  public struct Feature: Sendable, Hashable {
    public var name: String
    public var columns: Range<Int>
    public var categorical: Bool
    public var imputation: Imputation
    /// A categorical feature's categories, in column order.
    public var categories: [String]

    public init(name: String, columns: Range<Int>, categorical: Bool, imputation: Imputation, categories: [String] = [])
    {
      self.name = name
      self.columns = columns
      self.categorical = categorical
      self.imputation = imputation
      self.categories = categories
    }
  }

  public var features: [Feature]

  public init(features: [Feature]) {
    self.features = features
  }

  /// The imputed features of `dataset`, in feature order.
  public init(dataset features: [FeatureSummary]) {
    // A categorical feature under a numeric strategy misses no value (the loader refuses it otherwise): nothing
    // to fill.
    self.features = features.compactMap { summary in
      if summary.type == .categorical, summary.imputation?.strategy.fillsCategories == false { return nil }
      return summary.imputation.map {
        Feature(
          name: summary.name, columns: summary.columns, categorical: summary.type == .categorical, imputation: $0,
          categories: summary.categories ?? [])
      }
    }
  }

  /// Each feature's statistic over the rows of `x` where it is present.
  public func fit(_ x: Matrix) -> FittedImputer {
    var fills: [FittedImputer.Fill] = []
    for feature in features {
      let first = feature.columns.lowerBound
      var missing = 0
      for r in 0..<x.rows where x[r, first].isNaN { missing += 1 }
      let values =
        feature.categorical
        ? Self.category(feature, x: x)
        : [Self.statistic(feature.imputation, x.column(first).filter { !$0.isNaN })]
      fills.append(
        FittedImputer.Fill(
          name: feature.name, columns: feature.columns, values: values, strategy: feature.imputation.strategy,
          missingInTraining: missing, presentInTraining: x.rows - missing,
          indicator: feature.imputation.addIndicator && missing > 0, location: feature.imputation.location))
    }
    return FittedImputer(fills: fills, inputWidth: x.columns)
  }

  /// The number a numeric feature's missing cells take; `NaN` when a statistic has no value to compute from.
  static func statistic(_ imputation: Imputation, _ present: [Double]) -> Double {
    switch imputation.strategy {
    case .constant:
      return imputation.numericFill ?? .nan
    case _ where present.isEmpty:
      return .nan
    case .mean:
      return present.reduce(0, +) / Double(present.count)
    case .median:
      let sorted = present.sorted()
      let middle = sorted.count / 2
      return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    case .mostFrequent:
      // The smallest of the most frequent values, as scikit-learn (and `scipy.stats.mode`) picks.
      let sorted = present.sorted()
      var best = sorted[0]
      var bestCount = 0
      var start = 0
      while start < sorted.count {
        var end = start
        while end < sorted.count && sorted[end] == sorted[start] { end += 1 }
        if end - start > bestCount {
          best = sorted[start]
          bestCount = end - start
        }
        start = end
      }
      return best
    }
  }

  /// The row a categorical feature's missing cells take: the columns of a training row holding the most frequent
  /// category (the first in category order among equally frequent ones, the smallest, as scikit-learn picks), or
  /// the constant category, which the loader placed among the categories. A row's category is its largest
  /// column, so a standardisation before the imputer changes nothing (the hot column is the only positive one).
  /// All `NaN` when no category is present to count.
  static func category(_ feature: Feature, x: Matrix) -> [Double] {
    let width = feature.columns.count
    var counts = [Int](repeating: 0, count: width)
    var example = [Int?](repeating: nil, count: width)
    for r in 0..<x.rows where !x[r, feature.columns.lowerBound].isNaN {
      var hot = 0
      for (offset, column) in feature.columns.enumerated() where x[r, column] > x[r, feature.columns.lowerBound + hot] {
        hot = offset
      }
      counts[hot] += 1
      if example[hot] == nil { example[hot] = r }
    }
    let chosen: Int?
    switch feature.imputation.strategy {
    case .constant:
      chosen = feature.categories.firstIndex(of: feature.imputation.categoricalFill)
    default:
      let most = counts.max() ?? 0
      chosen = most > 0 ? counts.firstIndex(of: most) : nil
    }
    guard let chosen else { return [Double](repeating: .nan, count: width) }
    if let r = example[chosen] { return feature.columns.map { x[r, $0] } }
    // A constant category no training row holds: its one-hot row.
    var row = [Double](repeating: 0, count: width)
    row[chosen] = 1
    return row
  }
}
