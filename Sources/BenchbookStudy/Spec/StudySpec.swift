import BenchbookData
import BenchbookSpec

/// A study: several experiments (one per dataset) whose models are compared across datasets, as a YAML file
/// names them (see `StudySpecParser`).
public struct StudySpec: Sendable {
  /// One experiment of the study, in the study's order.
  public struct Experiment: Sendable {
    /// The experiment spec's path: the study file's folder joined with the entry as written (globs expanded),
    /// `.` and `..` resolved lexically, so it reads the same from wherever the study was given.
    public var path: String
    public var spec: ExperimentSpec
    /// The `experiments` entry that named it.
    public var location: SourceLocation
  }

  /// The metrics a study can compare per dataset.
  public enum Metric: String, Sendable, CaseIterable {
    /// The mean over an experiment's outer folds of its models' log-loss, lower is better.
    case logLoss = "log_loss"
  }

  public var name: String
  public var description: String?
  /// As given on the command line.
  public var path: String
  public var experiments: [Experiment]
  public var metric: Metric
  /// Half-width of the region of practical equivalence, in the metric's units (nats for log-loss).
  public var rope: Double
  public var alpha: Double
  /// The models compared, by label, in the order the study reports them: the `models:` filter's, else the first
  /// experiment's.
  public var models: [String]
  /// Whether `models:` chose them.
  public var modelsFiltered: Bool

  public static let defaultRope = 0.01
  public static let defaultAlpha = 0.05
}
