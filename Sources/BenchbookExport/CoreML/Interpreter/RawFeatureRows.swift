import BenchbookData

/// Turns design-matrix rows back into what an app passes a Core ML model:
/// each spec feature by name, a number for a numeric feature and the category
/// (int64 or string, as the exporter types it) for a categorical one.
public enum RawFeatureRows {
  /// - Parameters:
  ///   - x: encoded rows, as `Dataset.x` holds them (unscaled).
  ///   - features: the spec features, as `Dataset.features` describes them.
  public static func rows(_ x: Matrix, features: [FeatureSummary]) -> [[String: FeatureValue]] {
    (0..<x.rows).map { r in
      var row: [String: FeatureValue] = [:]
      for feature in features {
        switch feature.type {
        case .numeric:
          row[feature.name] = .double(x[r, feature.columns.lowerBound])
        case .categorical where x[r, feature.columns.lowerBound].isNaN:
          // A missing category, as an app passes it to an exported imputer.
          row[feature.name] =
            LabelType(labels: feature.categories ?? []) == .int64
            ? .int64(MissingSentinel.integer) : .string(MissingSentinel.text)
        case .categorical:
          let categories = feature.categories ?? []
          var chosen = 0
          for (i, column) in feature.columns.enumerated() where x[r, column] > x[r, feature.columns.lowerBound + chosen]
          {
            chosen = i
          }
          let text = categories[chosen]
          row[feature.name] =
            LabelType(labels: categories) == .int64 ? .int64(LabelType.int64(from: text) ?? 0) : .string(text)
        }
      }
      return row
    }
  }
}
