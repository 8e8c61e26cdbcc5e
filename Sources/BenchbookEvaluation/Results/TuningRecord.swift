import BenchbookModels

/// How a tuned model was tuned, as `results.json` records it under `models[].tuning`.
///
/// The model's own `log_loss` and `folds` are the nested scores (tune on the
/// outer training rows, score on the outer test rows); everything here explains them.
public struct TuningRecord: Codable, Sendable {
  /// The declared search space: scikit-learn name → values.
  public var space: [String: [ParameterValue]]
  /// How each outer training set was split to choose: e.g. `stratified-kfold`, 5 folds.
  public var inner: InnerRecord
  public var metric: String
  public var configurations: [ConfigurationRecord]
  /// One per outer fold: the configuration chosen on that fold's training rows.
  public var chosen: [ChoiceRecord]
  /// The same choice made among configurations inside the budget, when the spec has one.
  public var chosenWithinBudget: [ChoiceRecord]?
  /// Nested score of choosing inside the budget; absent when no budget, or when
  /// some outer fold had no configuration inside it.
  public var budgetLogLoss: Summary?
  /// The configuration chosen by the inner protocol on all rows: what `export` ships.
  public var finalConfiguration: Int
  public var finalParams: [String: ParameterValue]
  /// How many outer folds chose each configuration.
  public var selectionFrequency: [Int]
  /// The scikit-learn defaults (with the spec's fixed settings), for comparison.
  public var defaults: DefaultRecord
}

public struct InnerRecord: Codable, Sendable, Hashable {
  public var method: String
  public var folds: Int
}

/// One configuration of the grid.
public struct ConfigurationRecord: Codable, Sendable {
  /// Every setting (scikit-learn names).
  public var params: [String: ParameterValue]
  /// Scored on every outer fold as if fixed in advance: honest for one configuration, optimistic for the best of many.
  public var flatLogLoss: Summary
  public var flatFolds: [Double]
  /// Fitted on all rows.
  public var parameterCount: Int
  public var modelSizeBytes: Int?
  /// A timing: single-row prediction of the fit on all rows.
  public var latencyMicroseconds: LatencyRecord?
  /// Whether the fit on all rows fits the budget (true when there is none).
  public var withinBudget: Bool
  /// File size in every measured format, when the spec lists formats (`ModelResult.modelSizes`).
  public var modelSizes: [String: Int]? = nil

  /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
  enum CodingKeys: String, CodingKey {
    case params, flatLogLoss, flatFolds, parameterCount, modelSizeBytes, withinBudget, modelSizes
    case latencyMicroseconds = "latencyUs"  // latency_us
  }

  /// The file size in a format: `model_size_bytes` for Core ML, `model_sizes` for the others.
  public func sizeBytes(in format: String) -> Int? {
    format == "coreml" ? modelSizeBytes : modelSizes?[format]
  }
}

/// The configuration one outer fold chose.
public struct ChoiceRecord: Codable, Sendable {
  public var fold: Int
  /// Index into `configurations`, or `nil` when none was inside the budget.
  public var configuration: Int?
  /// The chosen configuration's searched settings.
  public var params: [String: ParameterValue]?
  /// Its mean log-loss over the inner folds.
  public var innerLogLoss: Double?
}

/// The untuned model the tuned one replaces.
public struct DefaultRecord: Codable, Sendable {
  public var params: [String: ParameterValue]
  /// Its index in `configurations` when the grid holds it.
  public var configuration: Int?
  public var flatLogLoss: Summary
  public var modelSizeBytes: Int?
  /// File size in every measured format, when the spec lists formats.
  public var modelSizes: [String: Int]? = nil

  /// The file size in a format: `model_size_bytes` for Core ML, `model_sizes` for the others.
  public func sizeBytes(in format: String) -> Int? {
    format == "coreml" ? modelSizeBytes : modelSizes?[format]
  }
}

/// The spec's budget, as results record it.
public struct BudgetRecord: Codable, Sendable, Hashable {
  public var modelSizeBytes: Int?
  public var latencyMicrosecondsP99: Double?
  /// The format whose size `model_size_bytes` limits; absent for Core ML, the default.
  public var format: String? = nil

  /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
  enum CodingKeys: String, CodingKey {
    case modelSizeBytes
    case latencyMicrosecondsP99 = "latencyUsP99"  // latency_us_p99
    case format
  }

  /// The format's id, Core ML's when the spec names none.
  public var sizeFormat: String { format ?? "coreml" }
}
