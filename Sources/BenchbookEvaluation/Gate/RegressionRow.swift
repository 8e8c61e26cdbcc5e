/// One judged figure of a regression check.
public struct RegressionRow: Codable, Sendable, Hashable {
  public enum Verdict: String, Codable, Sendable, Hashable, CaseIterable {
    case fail
    case warn
    case notComparable = "not comparable"
    case improved
    case drift
    case pass

    /// Most severe first, for sorting the report.
    public var severity: Int { Self.allCases.firstIndex(of: self)! }
  }

  public enum Metric: String, Codable, Sendable, Hashable {
    case model
    case logLoss = "log-loss"
    case accuracy
    case brier
    case rocAUC = "ROC AUC"
    case fitTime = "fit time ratio"
    case predictTime = "predict time ratio"
    case modelSize = "model size"
    case chosenConfiguration = "chosen configuration"
    case fitInstructions = "fit instructions"
    case predictInstructions = "predict instructions"
  }

  public var model: String
  public var metric: Metric
  public var verdict: Verdict
  /// Baseline and current values: means for scores, medians of model ÷ reference for times, bytes for size.
  public var baseline: Double?
  public var current: Double?
  /// The limits the change was held to, in the change's own terms (an increase for
  /// log-loss, a factor for times, a relative increase for size).
  public var warnLimit: Double?
  public var failLimit: Double?
  /// Mann–Whitney p-value that the current times are larger (times only).
  public var pValue: Double?
  /// Spread of the current samples: interquartile range ÷ median (times only).
  public var noise: Double?
  /// Side by side (`check --against`): the judged factor, head ÷ base as the median of
  /// per-round ratios, which need not equal current ÷ baseline.
  public var factor: Double?
  /// Side by side: the median factor the base's own times moved by between consecutive
  /// rounds of this check; a slowdown within it is not told apart from noise.
  public var noiseBand: Double?
  public var note: String?

  public init(
    model: String, metric: Metric, verdict: Verdict, baseline: Double? = nil, current: Double? = nil,
    warnLimit: Double? = nil, failLimit: Double? = nil, pValue: Double? = nil, noise: Double? = nil, note: String? = nil
  ) {
    self.model = model
    self.metric = metric
    self.verdict = verdict
    self.baseline = baseline
    self.current = current
    self.warnLimit = warnLimit
    self.failLimit = failLimit
    self.pValue = pValue
    self.noise = noise
    self.note = note
  }

  /// Whether the row is a judgement (passed or failed) rather than a notice.
  public var isJudged: Bool { verdict != .notComparable }
}
