import BenchbookData

/// Ceilings checked before any data is read, so a typo in a spec cannot start work that never ends.
extension SpecParser {
  /// Model fits a spec may ask for unless `resampling.max_fits` raises it.
  public static let defaultMaximumFits = 100_000
  /// Longest `name:`, which becomes a folder name and part of file names.
  public static let maximumNameLength = 100

  /// Fits = outer splits (folds × repeats for repeated k-fold, folds, or 1 for holdout) × the sum over
  /// models of their configurations (1 for a fixed model). An error at `repeats:` or `folds:` (or the
  /// models list) when it passes `max_fits`.
  static func checkWork(_ resampling: any ResamplingMethod, models: [ModelSpec], node: SpecNode?, modelsNode: SpecNode?)
    throws(SpecError)
  {
    let fields = try node?.fields(allowed: resamplingKeys) ?? [:]
    var ceiling = defaultMaximumFits
    if let maximum = fields.optional("max_fits") {
      ceiling = try maximum.int(atLeast: 1, atMost: Limits.maximumFits, limit: "the limit on max_fits")
    }
    let splits = resampling.splitCount
    let configurations = models.reduce(0) { total, model in
      let count = model.search?.configurations.count ?? 1
      return total > Int.max - count ? Int.max : total + count
    }
    let fits = FoldPlan.saturatingProduct(splits, configurations)
    guard fits > ceiling else { return }
    let shown = fits == Int.max ? "more than \(Int.max)" : "\(fits)"
    let message =
      "the spec asks for \(shown) model fits (\(splits) splits × \(configurations) model configurations), "
      + "more than the limit of \(ceiling); lower it, or raise 'resampling.max_fits' if you mean it"
    if let place = fields.optional("repeats") ?? fields.optional("folds") ?? node ?? modelsNode {
      throw place.error(message)
    }
    throw SpecError(message, at: SourceLocation(file: "spec"))
  }

}
