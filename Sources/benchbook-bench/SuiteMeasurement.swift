/// What the bench suite measured on one dataset: every alternating pair (Benchbook, then
/// scikit-learn) with the load average around it. Kept whole in `suite.json`, so a table can be
/// recomputed and a busy pair seen.
struct SuiteMeasurement: Codable, Equatable {
  var name: String
  var spec: String
  /// Why the dataset is in the suite (wide, categorical, many classes, large, …), from the suite list.
  var kind: String
  var rows: Int
  /// Encoded columns (after one-hot encoding).
  var columns: Int
  var classes: Int
  var pairs: [Pair]

  struct Pair: Codable, Equatable {
    /// The 1-minute load average just before Benchbook started and just after scikit-learn ended.
    var loadBefore: Double
    var loadAfter: Double
    var benchbook: BenchbookRun
    var sklearn: SklearnRun
  }

  struct BenchbookRun: Codable, Equatable {
    var wallSeconds: Double
    var cpuSeconds: Double
    var peakResidentBytes: Int
    var phases: PhaseTimes
    /// Each model's fit and predict seconds summed over its folds (results.json), by label.
    var foldSeconds: [String: Double]
    /// Each model's mean fold log-loss, by label.
    var logLoss: [String: Double]
  }

  struct SklearnRun: Codable, Equatable {
    /// The whole script (interpreter start, imports and pandas' read included).
    var wallSeconds: Double
    var cpuSeconds: Double
    var peakResidentBytes: Int
    /// Each model's `cross_validate` wall seconds, by label.
    var foldSeconds: [String: Double]
    var foldCPUSeconds: [String: Double]
    var logLoss: [String: Double]
    /// `LogisticRegression(solver="newton-cg", tol=1e-14)`'s `cross_validate` seconds, timed in a
    /// process of its own, for datasets with more than two classes.
    var newtonCGSeconds: Double?
    /// Whether scikit-learn's folds hold exactly the test class counts Benchbook's results.json records.
    var foldsMatch: Bool
    var version: String
  }
}
