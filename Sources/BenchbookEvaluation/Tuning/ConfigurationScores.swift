import BenchbookData

/// Every configuration of one tuned model scored on one split.
public struct ConfigurationScores: Sendable, Codable {
  /// Test log-loss per configuration.
  public var logLoss: [Double]
  /// Every measure per configuration, on outer folds only (inner splits need log-loss alone).
  public var scores: [FoldScores]?
  /// Per configuration, on outer folds only: the reliability diagram's bins and the calibration measures' points.
  public var calibration: [FoldCalibration]?
  /// Core ML file size of each configuration fitted on this split's training rows, when a size budget asks.
  public var sizeBytes: [Int?]
  /// Fit and predict time of the whole split, all configurations together.
  public var fitSeconds: Double
  public var predictSeconds: Double
}
