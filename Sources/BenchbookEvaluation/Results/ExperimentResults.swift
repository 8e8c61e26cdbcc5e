import BenchbookData
import BenchbookModels
import BenchbookSpec

/// Everything a run produced, as written to `results.json`.
///
/// Reports and regression checks are pure functions of this value. Key names
/// are a contract other tools read; timings live only in `*_seconds` fields so
/// two runs of the same spec differ in nothing else.
public struct ExperimentResults: Codable, Sendable {
  public var benchbook: String
  public var experiment: String
  /// The command that reproduces these results.
  public var command: String
  public var description: String?
  public var spec: SpecRecord
  public var data: DataRecord
  public var preprocess: [String]
  public var resampling: ResamplingRecord
  public var scoring: ScoringRecord
  public var models: [ModelResult]
  public var environment: EnvironmentRecord
  /// The leak audit; absent in results written before it existed, or when it was switched off.
  public var audit: AuditRecord? = nil
  /// What an app can afford, when the spec says.
  public var budget: BudgetRecord? = nil
  /// Each preprocessing step with the columns it transforms, when a step leaves some columns as they are
  /// (`standardize: {columns: numeric}`); absent when every step transforms every column.
  public var preprocessing: [PreprocessingRecord]? = nil
  /// Each imputed feature, how and how many of its values; absent when the spec imputes nothing.
  public var imputation: [ImputationRecord]? = nil
}

/// One imputed feature: the settings that fill it and the values it misses among the rows used.
public struct ImputationRecord: Codable, Sendable, Hashable {
  public var feature: String
  /// `mean`, `median`, `most_frequent` or `constant`.
  public var strategy: String
  /// The constant, when the strategy is `constant` (scikit-learn's default when the spec gives none).
  public var fillValue: String?
  public var addIndicator: Bool
  /// Rows used that miss the feature, each imputed in every fit that holds it (and scored as imputed in its
  /// test fold).
  public var missing: Int
}

/// One preprocessing step and its columns.
public struct PreprocessingRecord: Codable, Sendable, Hashable {
  /// As `preprocess` names it: `standardize`.
  public var step: String
  /// `all` or `numeric`.
  public var columns: String
  /// Design-matrix columns the step passes unchanged (one-hot columns under `numeric`).
  public var unchanged: [String]
}

public struct SpecRecord: Codable, Sendable, Hashable {
  /// As given on the command line.
  public var path: String
  public var sha256: String
  /// SHA-256 of the spec's canonical definition (`ExperimentSpec.definitionText`):
  /// what must match for two runs to be compared.
  public var definitionSha256: String
}

public struct DataRecord: Codable, Sendable, Hashable {
  /// As written in the spec, relative to it.
  public var path: String
  public var sha256: String
  /// Rows used, after dropping.
  public var rows: Int
  public var rowsRead: Int
  public var droppedRows: Int
  public var droppedByColumn: [String: Int]
  public var missingPolicy: String
  public var target: String
  /// The binarising comparison, e.g. `> 15.0`.
  public var targetWhen: String?
  /// Spec feature names.
  public var features: [String]
  /// Design-matrix columns after one-hot encoding.
  public var columns: [String]
  public var featureSummaries: [FeatureRecord]
  public var classes: [String]
  public var classCounts: [Int]
  public var time: TimeRecord?
  /// How the file was read, when not as comma-separated text with decimal points and a header (or as
  /// tab-separated text for a `.tsv` name).
  public var dialect: DialectRecord? = nil
  /// The first column, skipped because it holds R's or pandas' row names; absent when there was none.
  public var rowNames: RowNamesColumn? = nil
  /// Declared timestamp formats by column; absent when none was declared.
  public var formats: [String: String]? = nil
}

/// A data file's delimiter, decimal separator and header, as read.
public struct DialectRecord: Codable, Sendable, Hashable {
  /// `,`, `;`, `\t`, …
  public var delimiter: String
  /// `.` or `,`.
  public var decimal: String
  /// Whether the first line named the columns.
  public var header: Bool
  /// For a file without a header: `spec` (named by `data.columns`) or `generated` (`V1`, `V2`, …).
  public var names: String?
}

public struct FeatureRecord: Codable, Sendable, Hashable {
  public var name: String
  /// Encodes as `numeric` or `categorical`.
  public var type: FeatureType
  public var min: Double?
  public var max: Double?
  public var categories: [String]?
  public var missing: Int
}

public struct TimeRecord: Codable, Sendable, Hashable {
  public var column: String
  /// ISO-8601, UTC.
  public var first: String
  public var last: String
}

public struct ResamplingRecord: Codable, Sendable, Hashable {
  public var method: String
  public var folds: Int
  public var shuffle: Bool
  public var seed: UInt64?
  public var repeats: Int?
  public var gap: Int?
  public var maxTrainSize: Int?
  public var testSize: Double?
  /// The column whose values group the rows (group methods only; absent otherwise).
  public var groups: String?
  /// SHA-256 of the fold assignment, so two results can be known to share folds.
  public var planSha256: String
  public var splits: [SplitRecord]

  /// The method's record (`ResamplingMethod.record`), with the plan's digest and splits.
  public init(_ summary: ResamplingSummary, planSha256: String, splits: [SplitRecord]) {
    method = summary.method
    folds = summary.folds
    shuffle = summary.shuffle
    seed = summary.seed
    repeats = summary.repeats
    gap = summary.gap
    maxTrainSize = summary.maxTrainSize
    testSize = summary.testSize
    groups = summary.groups
    self.planSha256 = planSha256
    self.splits = splits
  }

  /// What the method recorded, as its report description reads it (`ResamplingMethod.describe`).
  public var summary: ResamplingSummary {
    ResamplingSummary(
      method: method, folds: folds, shuffle: shuffle, seed: seed, repeats: repeats, gap: gap,
      maxTrainSize: maxTrainSize, testSize: testSize, groups: groups)
  }
}

/// One fold's sizes and class make-up.
public struct SplitRecord: Codable, Sendable, Hashable {
  public var fold: Int
  public var `repeat`: Int
  public var trainRows: Int
  public var testRows: Int
  /// Rows per class, in `data.classes` order.
  public var trainClassCounts: [Int]
  public var testClassCounts: [Int]
}

public struct ScoringRecord: Codable, Sendable, Hashable {
  /// Probabilities are clipped to [ε, 1 − ε] before the logarithm.
  public var logLossEpsilon: Double
  /// Population standard deviation over folds (numpy's ddof = 0).
  public var spread: String
}

/// Mean and population standard deviation over folds.
public struct Summary: Codable, Sendable, Hashable {
  public var mean: Double?
  public var std: Double?

  public init(_ values: [Double]) {
    guard !values.isEmpty else { return }
    let mean = values.reduce(0, +) / Double(values.count)
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
    self.mean = mean
    self.std = variance.squareRoot()
  }
}

public struct ModelResult: Codable, Sendable {
  public var label: String
  /// The model's descriptor id (`ModelDescriptor.id`), e.g. `logistic_regression`.
  public var algorithm: String
  public var params: [String: ParameterValue]
  public var logLoss: Summary
  public var accuracy: Summary
  public var brier: Summary
  /// Over the folds where it is defined.
  public var rocAUC: Summary
  public var folds: [FoldResult]
  /// Learned numbers of the model fitted on all rows.
  public var parameterCount: Int
  /// Exact size of the Core ML file of the model fitted on all rows, as `benchbook export` writes it.
  public var modelSizeBytes: Int?
  /// The lowest Core ML specification version the file needs, and the iOS release that brings it.
  public var coremlSpecVersion: Int?
  public var coremlIOS: String?
  /// Why the model could not be exported, when it could not.
  public var coremlError: String?
  /// Exact file size in every format the spec measures (`export.formats`), by format id; only for specs that
  /// list formats, so other results read as before.
  public var modelSizes: [String: Int]?
  /// Why a measured format could not hold the model, by format id; absent when every one could.
  public var exportErrors: [String: String]?
  /// Single-row prediction through Benchbook's fitted pipeline (a timing: changes between runs).
  public var latencyMicroseconds: LatencyRecord?
  /// Batch prediction rate (a timing: changes between runs).
  public var throughputRowsPerSecond: Double?
  /// How the model was tuned; absent for a model with fixed settings.
  public var tuning: TuningRecord?
  /// Whether the shipped model fits the spec's budget; absent without a budget.
  public var withinBudget: Bool?
  /// The reliability diagram over the test folds (nested ones for a tuned model); recorded when the spec tunes.
  public var calibration: CalibrationRecord?

  public init(
    label: String, algorithm: String, params: [String: ParameterValue], logLoss: Summary, accuracy: Summary,
    brier: Summary, rocAUC: Summary, folds: [FoldResult], parameterCount: Int
  ) {
    self.label = label
    self.algorithm = algorithm
    self.params = params
    self.logLoss = logLoss
    self.accuracy = accuracy
    self.brier = brier
    self.rocAUC = rocAUC
    self.folds = folds
    self.parameterCount = parameterCount
  }

  /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
  enum CodingKeys: String, CodingKey {
    case label, algorithm, params, accuracy, brier, folds, logLoss, parameterCount, modelSizeBytes, coremlSpecVersion,
      coremlError, modelSizes, exportErrors, tuning, withinBudget, calibration
    case rocAUC = "rocAuc"  // roc_auc
    case coremlIOS = "coremlIos"  // coreml_ios
    case latencyMicroseconds = "latencyUs"  // latency_us
    case throughputRowsPerSecond = "throughputRowsPerS"  // throughput_rows_per_s
  }
}

extension ModelResult {
  /// The descriptor of the model's algorithm, when this program knows it (a results file may come from a build
  /// with models this one lacks).
  public var descriptor: ModelDescriptor? { ModelRegistry.descriptor(id: algorithm) }

  /// The algorithm in words, or its id when this program does not know it.
  public var algorithmName: String { descriptor?.displayName ?? algorithm }

  /// The file size in a format: `model_size_bytes` for Core ML, `model_sizes` for the others.
  public func sizeBytes(in format: String) -> Int? {
    format == "coreml" ? modelSizeBytes : modelSizes?[format]
  }
}

/// Percentiles of single-row prediction time, in microseconds.
public struct LatencyRecord: Codable, Sendable, Hashable {
  public var p50: Double
  public var p99: Double

  public init(p50: Double, p99: Double) {
    self.p50 = p50
    self.p99 = p99
  }
}

public struct FoldResult: Codable, Sendable {
  public var fold: Int
  public var `repeat`: Int
  public var trainRows: Int
  public var testRows: Int
  public var logLoss: Double
  public var accuracy: Double
  public var brier: Double
  public var rocAUC: Double?
  /// Test rows whose true class got a probability below ε.
  public var clippedRows: Int
  /// Share of the fold's log-loss owed to those rows.
  public var clippedLossShare: Double
  public var fitSeconds: Double
  public var predictSeconds: Double

  /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
  enum CodingKeys: String, CodingKey {
    case fold, `repeat`, accuracy, brier, trainRows, testRows, logLoss, clippedRows, clippedLossShare, fitSeconds,
      predictSeconds
    case rocAUC = "rocAuc"  // roc_auc
  }
}

public struct EnvironmentRecord: Codable, Sendable, Hashable {
  public var swift: String
  public var os: String
  public var cpu: String
  public var cores: Int
  public var jobs: Int
  public var gitCommit: String
  /// `BENCHBOOK_TEST_REPEAT_FIT` as set for the run (tests only); absent when unset.
  public var testRepeatFit: String? = nil
  /// The BLAS library and kernels that computed the dense products (`OpenBLASSettings`), e.g. "OpenBLAS 0.3.21,
  /// SkylakeX kernels": other kernels sum in another order, so the last bits of some scores depend on them.
  /// Absent from files written before it was recorded.
  public var blas: String? = nil
}
