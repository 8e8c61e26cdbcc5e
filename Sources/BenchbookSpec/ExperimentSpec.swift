import BenchbookData
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

  public init(
    name: String, description: String?, path: String, dataPath: String, dataset: DatasetDefinition,
    preprocessing: [PreprocessingStep], resampling: any ResamplingMethod, models: [ModelSpec],
    regression: RegressionSpec = RegressionSpec(), audit: AuditSpec = AuditSpec(), tune: TuneSpec = TuneSpec(),
    budget: BudgetSpec? = nil
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
  }

  /// Whether any model searches over settings.
  public var tunes: Bool { models.contains(where: \.isTuned) }
}

/// A transform applied before every model, fitted on the training fold.
public enum PreprocessingStep: String, Sendable, Hashable, Codable, CaseIterable {
  /// scikit-learn's `StandardScaler`.
  case standardize
}
