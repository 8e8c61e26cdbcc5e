/// How `benchbook check` times models and judges them against a baseline.
public struct RegressionSpec: Sendable, Hashable {
  /// Interleaved rounds of the single-threaded timing pass.
  public var rounds: Int
  public var defaults: RegressionThresholds
  /// Thresholds for particular models (by label), already merged over `defaults`.
  public var perModel: [String: RegressionThresholds]
  /// Whether to count each model's instructions under valgrind (`regression.instructions: true`):
  /// about 50× slower than a timed fit, and untouched by noise.
  public var instructions: Bool

  public init(
    rounds: Int = 7, defaults: RegressionThresholds = RegressionThresholds(),
    perModel: [String: RegressionThresholds] = [:], instructions: Bool = false
  ) {
    self.rounds = rounds
    self.defaults = defaults
    self.perModel = perModel
    self.instructions = instructions
  }

  public func thresholds(for label: String) -> RegressionThresholds { perModel[label] ?? defaults }
}

/// The limits of the regression check. A log-loss limit is the larger of an
/// absolute and a relative part: max(0.0005, 0.25%) warns, max(0.002, 1%) fails.
public struct RegressionThresholds: Sendable, Hashable, Codable {
  public var logLossWarn = 0.0005
  public var logLossWarnRelative = 0.0025
  public var logLossFail = 0.002
  public var logLossFailRelative = 0.01
  /// A slower time ratio warns from this factor, when Mann–Whitney p < `timeSignificance`.
  public var timeWarn = 1.2
  /// …and fails from this one, under the same test.
  public var timeFail = 1.5
  /// …and fails from this one whatever the test says.
  public var timeFailRegardless = 2.0
  public var timeSignificance = 0.01
  public var sizeWarnRelative = 0.01
  public var sizeFailRelative = 0.10
  /// More instructions than the baseline's warn from this share, and fail from the next.
  public var instructionsWarnRelative = 0.01
  public var instructionsFailRelative = 0.05
  /// Relative changes above this are listed as drift, so a stale baseline shows.
  public var drift = 1e-9

  public init() {}

  /// The log-loss increase that warns (or fails) for a baseline of `value`.
  public func logLossLimit(_ value: Double, failing: Bool) -> Double {
    failing ? max(logLossFail, logLossFailRelative * value) : max(logLossWarn, logLossWarnRelative * value)
  }

  /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
  enum CodingKeys: String, CodingKey {
    case logLossWarn, logLossWarnRelative, logLossFail, logLossFailRelative, drift
    case timeWarn = "timeRatioWarn"  // time_ratio_warn
    case timeFail = "timeRatioFail"  // time_ratio_fail
    case timeFailRegardless = "timeRatioFailRegardless"  // time_ratio_fail_regardless
    case timeSignificance = "timeRatioP"  // time_ratio_p
    case sizeWarnRelative = "modelSizeWarnRelative"  // model_size_warn_relative
    case sizeFailRelative = "modelSizeFailRelative"  // model_size_fail_relative
    case instructionsWarnRelative = "instructionCountWarnRelative"  // instruction_count_warn_relative
    case instructionsFailRelative = "instructionCountFailRelative"  // instruction_count_fail_relative
  }
}
