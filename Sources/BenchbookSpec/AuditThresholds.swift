/// The numbers that decide each audit check's severity. The defaults are the
/// ones the leak-audit design fixes; a spec may change any of them under
/// `audit: {thresholds: …}`.
public struct AuditThresholds: Sendable, Hashable, Codable {
  /// temporal-split: an optimism gap (forward-chaining log-loss − the spec's) warns above
  /// max(`optimismGap`, `optimismStandardErrors` × its standard error).
  public var optimismGap = 0.01
  public var optimismStandardErrors = 2.0
  /// suspect-leak: removing a feature raises the best model's log-loss by at least this share
  /// of the null model's log-loss (warning).
  public var dropColumnShare = 0.25
  /// suspect-leak: a single feature's cross-validated ROC AUC at least this (warning).
  public var singleFeatureAUCWarning = 0.99
  /// suspect-leak: a single feature's cross-validated ROC AUC at least this (info).
  public var singleFeatureAUCInfo = 0.95
  /// suspect-leak: the best model's pseudo-R² (1 − log-loss / null log-loss) at least this (info).
  public var pseudoR2 = 0.8
  /// time-proxy: |Spearman ρ| with the time column at least this (warning).
  public var timeProxySpearman = 0.95
  /// cross-fold-duplicates: share of test rows identical to a training row above which it warns.
  public var duplicatesWarningShare = 0.0
  /// cross-fold-duplicates: … and above which it is an error.
  public var duplicatesErrorShare = 0.05
  /// preprocessing-scope: every numeric feature with |mean| and |sd − 1| within this over all
  /// rows counts as already standardised (warning).
  public var standardizedTolerance = 0.01
  /// post-outcome-feature: share of rows whose `available_at` is after `predict_at` above which it
  /// is an error.
  public var availableAfterShare = 0.0

  public init() {}

  /// Spec key, property, and the values that make sense, for the parser and the results file alike.
  public static var settings:
    [(key: String, path: WritableKeyPath<AuditThresholds, Double>, range: ClosedRange<Double>)]
  {
    [
      ("optimism_gap", \.optimismGap, 0...Double.greatestFiniteMagnitude),
      ("optimism_se", \.optimismStandardErrors, 0...Double.greatestFiniteMagnitude),
      ("drop_column", \.dropColumnShare, 0...Double.greatestFiniteMagnitude),
      ("auc_warning", \.singleFeatureAUCWarning, 0.5...1),
      ("auc_info", \.singleFeatureAUCInfo, 0.5...1),
      ("pseudo_r2", \.pseudoR2, 0...1),
      ("time_proxy", \.timeProxySpearman, 0...1),
      ("duplicates_warning", \.duplicatesWarningShare, 0...1),
      ("duplicates_error", \.duplicatesErrorShare, 0...1),
      ("standardized_tolerance", \.standardizedTolerance, 0...1),
      ("available_after", \.availableAfterShare, 0...1),
    ]
  }

  /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
  enum CodingKeys: String, CodingKey {
    case optimismGap, pseudoR2, standardizedTolerance
    case optimismStandardErrors = "optimismSe"  // optimism_se
    case dropColumnShare = "dropColumn"  // drop_column
    case singleFeatureAUCWarning = "aucWarning"  // auc_warning
    case singleFeatureAUCInfo = "aucInfo"  // auc_info
    case timeProxySpearman = "timeProxy"  // time_proxy
    case duplicatesWarningShare = "duplicatesWarning"  // duplicates_warning
    case duplicatesErrorShare = "duplicatesError"  // duplicates_error
    case availableAfterShare = "availableAfter"  // available_after
  }
}
