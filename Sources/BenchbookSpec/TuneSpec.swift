import BenchbookData

/// How a tuned model picks its configuration inside each outer training set
/// (the spec's `tune:` section): the inner resampling and the score it minimises.
public struct TuneSpec: Sendable, Hashable {
  /// How each outer training set is split: scikit-learn's `cv=5` for a classifier is `StratifiedKFold`,
  /// unshuffled; time-ordered outer folds get time-ordered inner folds.
  public var inner: any InnerResampling.Type
  public var innerFolds: Int
  /// Only `log_loss` today; recorded so results say what was minimised.
  public var metric: String
  /// Where `tune.inner.folds` was written (else `tune.inner`, else `tune`), for errors found once the
  /// training rows are known.
  public var innerFoldsLocation: SourceLocation?

  public init(inner: any InnerResampling.Type = StratifiedKFold.self, innerFolds: Int = 5, metric: String = "log_loss")
  {
    self.inner = inner
    self.innerFolds = innerFolds
    self.metric = metric
  }

  /// Equal when they tune alike, wherever they were written.
  public static func == (a: TuneSpec, b: TuneSpec) -> Bool {
    a.inner.id == b.inner.id && a.innerFolds == b.innerFolds && a.metric == b.metric
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(inner.id)
    hasher.combine(innerFolds)
    hasher.combine(metric)
  }
}

/// What an app can afford (the spec's `budget:` section). A tuned model chooses
/// only among configurations inside it.
public struct BudgetSpec: Sendable, Hashable {
  /// Largest file, in bytes, in `format`.
  public var modelSizeBytes: Int?
  /// The export format whose file size the budget limits (`budget.format`); nil means Core ML.
  public var format: String?
  /// Largest 99th-percentile single-row latency, in microseconds. A timing:
  /// measured once per configuration on the fit on all rows.
  public var latencyMicrosecondsP99: Double?

  public init(modelSizeBytes: Int? = nil, latencyMicrosecondsP99: Double? = nil, format: String? = nil) {
    self.modelSizeBytes = modelSizeBytes
    self.latencyMicrosecondsP99 = latencyMicrosecondsP99
    self.format = format
  }

  /// The format's id, Core ML's when the spec names none.
  public var sizeFormat: String { format ?? "coreml" }

  /// Whether a configuration of this size and latency fits; an unknown size
  /// (a model that cannot be exported) does not.
  public func admits(sizeBytes: Int?, latencyP99: Double?) -> Bool {
    if let limit = modelSizeBytes {
      guard let sizeBytes, sizeBytes <= limit else { return false }
    }
    if let limit = latencyMicrosecondsP99 {
      guard let latencyP99, latencyP99 <= limit else { return false }
    }
    return true
  }
}
