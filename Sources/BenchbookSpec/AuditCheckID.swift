/// The leak audit's checks. Their raw values are a contract: results files,
/// `accept:` entries and other tools name checks by them.
public enum AuditCheckID: String, Sendable, Hashable, Codable, CaseIterable {
  /// Resampling lets training rows come after test rows in time.
  case temporalSplit = "temporal-split"
  /// A feature declared known only after the moment of prediction.
  case postOutcomeFeature = "post-outcome-feature"
  /// A feature too predictive to be believed, found by statistical screens.
  case suspectLeak = "suspect-leak"
  /// A feature nearly monotonic in time, such as a row id.
  case timeProxy = "time-proxy"
  /// Test rows identical to a training row.
  case crossFoldDuplicates = "cross-fold-duplicates"
  /// A transform fitted on rows other than the training fold, or data standardised before splitting.
  case preprocessingScope = "preprocessing-scope"
  /// A fold whose training rows lack a class.
  case classCoverage = "class-coverage"
  /// A winner picked on the same folds it is scored on: tuning, or several variants of one algorithm.
  case selectionBias = "selection-bias"
}

extension AuditCheckID: CustomStringConvertible {
  /// The contract id, as results files and messages write it.
  public var description: String { rawValue }
}
