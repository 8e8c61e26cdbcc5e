import BenchbookData

/// Every configuration of one tuned model scored on one split.
struct ConfigurationScores: Sendable {
  /// Test log-loss per configuration.
  var logLoss: [Double]
  /// Every measure per configuration, on outer folds only (inner splits need log-loss alone).
  var scores: [FoldScores]?
  /// Per configuration, on outer folds only: probabilities binned for the reliability diagram.
  var calibration: [CalibrationBins]?
  /// Core ML file size of each configuration fitted on this split's training rows, when a size budget asks.
  var sizeBytes: [Int?]
  /// Fit and predict time of the whole split, all configurations together.
  var fitSeconds: Double
  var predictSeconds: Double
  /// Each configuration fitted on all rows (the `allRows` split only), for the on-device measurements.
  var pipelines: [FittedPipeline]
}
