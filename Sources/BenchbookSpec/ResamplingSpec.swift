import BenchbookData

/// How rows are split into training and test folds.
public struct ResamplingSpec: Sendable, Hashable, Codable {
  public enum Method: String, Sendable, Hashable, Codable, CaseIterable {
    /// scikit-learn's `KFold`: contiguous blocks, optionally after one shuffle.
    case kfold
    /// scikit-learn's `StratifiedKFold`: folds keep class proportions.
    case stratifiedKFold = "stratified-kfold"
    /// `repeats` independently shuffled k-folds.
    case repeatedKFold = "repeated-kfold"
    /// scikit-learn's `TimeSeriesSplit` over rows sorted by the time column.
    case timeSeries = "time-series"
    /// One split: the last `testSize` share of rows (after an optional shuffle) is the test set.
    case holdout
  }

  public var method: Method
  /// Number of folds (time-series: number of splits).
  public var folds: Int
  public var shuffle: Bool
  public var seed: UInt64
  /// Repeats of repeated k-fold.
  public var repeats: Int
  /// Time-series: rows left out between training and test.
  public var gap: Int
  /// Time-series: keep at most this many of the latest training rows.
  public var maxTrainSize: Int?
  /// Time-series: test rows per split (`nil`: rows / (folds + 1)). Holdout: share of rows, in (0, 1).
  public var testSize: Double?
  /// Where `folds` was written, for errors found once the data is known (more folds than rows).
  public var foldsLocation: SourceLocation?
  /// Where `test_size` was written or, when it was left to its default, where `method` was.
  public var testSizeLocation: SourceLocation?

  public init(
    method: Method = .kfold, folds: Int = 5, shuffle: Bool = false, seed: UInt64 = 0, repeats: Int = 10,
    gap: Int = 0, maxTrainSize: Int? = nil, testSize: Double? = nil, foldsLocation: SourceLocation? = nil
  ) {
    self.method = method
    self.folds = folds
    self.shuffle = shuffle
    self.seed = seed
    self.repeats = repeats
    self.gap = gap
    self.maxTrainSize = maxTrainSize
    self.testSize = testSize
    self.foldsLocation = foldsLocation
  }
}
