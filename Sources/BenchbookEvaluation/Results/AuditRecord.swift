import BenchbookSpec
import Foundation

/// The leak audit as written to `results.json` under `audit`: its findings,
/// which checks ran, the thresholds used, and what the report's audit plots
/// and tables need.
public struct AuditRecord: Codable, Sendable {
  /// Worst first, then in check order.
  public var findings: [AuditFinding]
  /// Every check, whether it ran, and a line on what it looked at.
  public var checks: [AuditCheckRecord]
  public var thresholds: AuditThresholds
  /// The spec's acceptances and how many findings each covered.
  public var accepted: [AcceptanceRecord]
  /// The statistical screens' numbers for every feature, found or not.
  public var screen: ScreenRecord?
  /// Class make-up over time and each fold's time coverage, when the spec declares `time:`.
  public var timeProfile: TimeProfile?

  /// Error-level findings nobody accepted: they fail the run (exit status 3).
  public var standingErrors: [AuditFinding] {
    findings.filter { $0.severity == .error && !$0.accepted }
  }

  /// The worst severity among findings not accepted, if any.
  public var worstUnaccepted: AuditSeverity? {
    findings.filter { !$0.accepted }.map(\.severity).max()
  }
}

public enum AuditSeverity: String, Codable, Sendable, Hashable, Comparable, CaseIterable {
  case info, warning, error

  private var rank: Int {
    switch self {
    case .info: 0
    case .warning: 1
    case .error: 2
    }
  }

  public static func < (a: AuditSeverity, b: AuditSeverity) -> Bool { a.rank < b.rank }
}

/// One thing the audit found. `check`, `severity`, `subject`, `message` and
/// `evidence` are a contract.
public struct AuditFinding: Codable, Sendable, Hashable {
  /// Encodes as its raw value, e.g. `temporal-split`.
  public var check: AuditCheckID
  public var severity: AuditSeverity
  /// What the finding is about: a feature, a class, a model, `rows`, the time column…
  public var subject: String
  /// The finding in plain words.
  public var message: String
  public var evidence: EvidenceValue
  /// Whether the spec accepts it (it is still shown, and no longer fails the run).
  public var accepted: Bool
  public var acceptedBecause: String?

  public init(
    check: AuditCheckID, severity: AuditSeverity, subject: String, message: String, evidence: EvidenceValue
  ) {
    self.check = check
    self.severity = severity
    self.subject = subject
    self.message = message
    self.evidence = evidence
    accepted = false
    acceptedBecause = nil
  }
}

public struct AuditCheckRecord: Codable, Sendable, Hashable {
  public var check: AuditCheckID
  /// `ran` or `skipped`.
  public var status: String
  /// What the check looked at, or why it did not run.
  public var note: String
}

public struct AcceptanceRecord: Codable, Sendable, Hashable {
  public var check: AuditCheckID
  public var subject: String?
  public var reason: String
  /// Findings it covered; 0 means it accepts nothing that was found.
  public var matched: Int
}

/// The statistical screens (suspect-leak) over a fixed sample of training rows.
public struct ScreenRecord: Codable, Sendable, Hashable {
  /// Rows screened, drawn from the training rows of fold `sourceFold` (0-based).
  public var rows: Int
  public var sourceFold: Int
  /// Inner cross-validation folds over those rows.
  public var folds: Int
  /// The model with the lowest inner-CV log-loss, used for drop-column.
  public var model: String?
  public var logLoss: Double?
  /// Log-loss of predicting each training fold's class shares.
  public var nullLogLoss: Double
  public var pseudoR2: Double?
  public var features: [ScreenFeature]
  /// The training rows of fold `sourceFold` that `rows` were drawn from; more than `rows` when the screens ran on
  /// a seeded sample (`audit.screen_rows`). Absent from records written before it was kept.
  public var sampledFrom: Int?

  public struct ScreenFeature: Codable, Sendable, Hashable {
    public var name: String
    /// The best model's inner-CV log-loss without this feature.
    public var logLossWithout: Double?
    /// (log-loss without − log-loss with) / null log-loss.
    public var dropColumnShare: Double?
    /// Mean inner-CV ROC AUC of this feature alone: the better of a logistic regression and a shallow tree on it
    /// (with more than two classes, the worst class's one-vs-rest AUC).
    public var singleFeatureAUC: Double?
    /// Its standard error: the larger of the spread between inner folds and Hanley & McNeil's within them.
    public var singleFeatureAUCStandardError: Double?
    /// Its one-sided 97.5% lower bound (t over the inner folds), which the warning compares with `auc_warning`.
    public var singleFeatureAUCLowerBound: Double?
    /// What neutralising the feature (held at its training mean, or at its prediction from the other features where
    /// that costs less) costs the screening model on the inner folds, as a share of the null log-loss: the screen
    /// that decides which features are refitted (`logLossWithout`, `dropColumnShare`).
    public var neutralisedShare: Double?

    /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
    enum CodingKeys: String, CodingKey {
      case name, logLossWithout, dropColumnShare, neutralisedShare
      case singleFeatureAUC = "singleFeatureAuc"  // single_feature_auc
      case singleFeatureAUCStandardError = "singleFeatureAucSe"  // single_feature_auc_se
      case singleFeatureAUCLowerBound = "singleFeatureAucLower"  // single_feature_auc_lower
    }
  }
}

extension AuditRecord {
  /// The record as `results.json` writes it under `audit`: sorted keys, shortest numbers.
  public func json() throws -> [UInt8] {
    try ResultsFile.encodeContract(self)
  }
}
