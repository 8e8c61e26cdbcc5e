import BenchbookData
import BenchbookExport
import BenchbookModels

/// A declarative experiment: which data, which target and features, how to
/// resample, and which models to compare. Parsed from YAML by `SpecParser`.
public struct ExperimentSpec: Sendable {
  /// Names the experiment and its report folder (`reports/<name>/`).
  public var name: String
  /// The question the experiment answers, in the user's words.
  public var description: String?
  /// The spec file as given on the command line.
  public var path: String
  /// The data path as written in the spec (relative to the spec), for results that read the same on every machine.
  public var dataPath: String
  public var dataset: DatasetDefinition
  /// Transforms fitted on each training fold only, in order.
  public var preprocessing: [PreprocessingStep]
  /// How rows are split into training and test folds.
  public var resampling: any ResamplingMethod
  public var models: [ModelSpec]
  /// Timing rounds and limits for `benchbook check`.
  public var regression: RegressionSpec
  /// How the leak audit runs, and the findings the author accepts.
  public var audit: AuditSpec
  /// How tuned models choose their configuration.
  public var tune: TuneSpec
  /// What an app can afford; tuned models choose inside it.
  public var budget: BudgetSpec?
  /// The export formats `run` measures besides Core ML (the spec's `export: {formats: […]}`), as format ids;
  /// nil when the spec has no `export:` section, which measures Core ML alone.
  public var exportFormats: [String]?

  public init(
    name: String, description: String?, path: String, dataPath: String, dataset: DatasetDefinition,
    preprocessing: [PreprocessingStep], resampling: any ResamplingMethod, models: [ModelSpec],
    regression: RegressionSpec = RegressionSpec(), audit: AuditSpec = AuditSpec(), tune: TuneSpec = TuneSpec(),
    budget: BudgetSpec? = nil, exportFormats: [String]? = nil
  ) {
    self.name = name
    self.description = description
    self.path = path
    self.dataPath = dataPath
    self.dataset = dataset
    self.preprocessing = preprocessing
    self.resampling = resampling
    self.models = models
    self.regression = regression
    self.audit = audit
    self.tune = tune
    self.budget = budget
    self.exportFormats = exportFormats
  }

  /// Whether any model searches over settings.
  public var tunes: Bool { models.contains(where: \.isTuned) }

  /// The formats `run` measures: Core ML always (results' `model_size_bytes`), then those the spec lists, in the
  /// registry's order.
  public var measuredFormats: [String] { Self.measured(exportFormats) }

  static func measured(_ listed: [String]?) -> [String] {
    let chosen = Set((listed ?? []) + [CoreMLFormat().id])
    return ExportFormats.ids.filter(chosen.contains)
  }
}

/// A transform applied before every model, fitted on the training fold, and the columns it transforms.
public struct PreprocessingStep: Sendable, Hashable, Codable {
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// scikit-learn's `StandardScaler`.
    case standardize
    /// scikit-learn's `SimpleImputer` (with `MissingIndicator` columns when asked): each imputed feature's own
    /// settings, or the step's.
    case impute
  }

  /// Which columns of the design matrix a step transforms.
  public enum Columns: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every column, one-hot columns included (a `StandardScaler` over the whole matrix).
    case all
    /// Numeric features only; one-hot columns pass as 0 and 1, as scikit-learn's usual `ColumnTransformer`
    /// (a scaler over the numeric columns, one-hot encoding the others) leaves them.
    case numeric
  }

  public var kind: Kind
  public var columns: Columns
  /// An `impute` step's settings for the features without their own; `nil` when only features' own
  /// imputations apply (the step is then implied, first, by a feature's `impute:`).
  public var imputation: Imputation?

  public init(_ kind: Kind, columns: Columns = .all, imputation: Imputation? = nil) {
    self.kind = kind
    self.columns = columns
    self.imputation = imputation
  }

  /// Standardise every column.
  public static let standardize = PreprocessingStep(.standardize)

  /// The step's name, as results.json's `preprocess` lists it (whatever its columns).
  public var rawValue: String { kind.rawValue }

  /// The step as the spec's canonical definition writes it: `standardize`, or `standardize(columns=numeric)`.
  public var definition: String {
    if kind == .impute { return imputation?.definition ?? "impute(per-feature)" }
    return columns == .all ? kind.rawValue : "\(kind.rawValue)(columns=\(columns.rawValue))"
  }
}
