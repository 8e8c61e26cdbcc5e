import BenchbookData

/// Design-matrix rows turned back into the values an app passes: a number for
/// a numeric feature, the index of the category for a categorical one (the
/// hot column of its one-hot columns); NaN for a missing value, which a
/// graph file that imputes fills.
enum RawInputs {
  /// One row per row of `x`, one value per feature.
  static func values(_ x: Matrix, features: [FeatureSummary]) -> [[Double]] {
    (0..<x.rows).map { r in
      features.map { feature in
        switch feature.type {
        case .numeric: return x[r, feature.columns.lowerBound]
        case .categorical where x[r, feature.columns.lowerBound].isNaN: return .nan
        case .categorical: return Double(categoryIndex(x, row: r, feature: feature))
        }
      }
    }
  }

  /// The category of `feature` in row `row`: the first of its columns holding the largest value.
  static func categoryIndex(_ x: Matrix, row: Int, feature: FeatureSummary) -> Int {
    var chosen = 0
    for (i, column) in feature.columns.enumerated() where x[row, column] > x[row, feature.columns.lowerBound + chosen] {
      chosen = i
    }
    return chosen
  }
}
