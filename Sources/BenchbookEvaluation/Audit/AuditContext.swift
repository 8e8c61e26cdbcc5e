import BenchbookData
import BenchbookSpec

/// What every audit check reads: the spec, the loaded data and the fold plan
/// the experiment used.
public struct AuditContext: Sendable {
  public let spec: ExperimentSpec
  public let dataset: Dataset
  public let plan: FoldPlan

  public init(spec: ExperimentSpec, dataset: Dataset, plan: FoldPlan) {
    self.spec = spec
    self.dataset = dataset
    self.plan = plan
  }

  public var thresholds: AuditThresholds { spec.audit.thresholds }

  /// The time column's name, when the spec declares one and the data has it.
  public var timeColumn: String? { dataset.time == nil ? nil : spec.dataset.time?.column }

  /// Folds per repeat (the plan's `k`).
  public var foldsPerRepeat: Int { plan.folds.count / max(1, plan.repeats) }
}

/// What one check concluded.
public struct CheckResult: Sendable {
  public var findings: [AuditFinding]
  /// What the check looked at, or why it did not run, in a line.
  public var note: String
  public var ran: Bool
  /// The statistical screens' numbers for every feature, when the check screened them (`suspect-leak`).
  public var screen: ScreenRecord?

  public init(findings: [AuditFinding] = [], note: String, ran: Bool = true) {
    self.findings = findings
    self.note = note
    self.ran = ran
  }

  public static func skipped(_ reason: String) -> CheckResult { CheckResult(note: reason, ran: false) }
}

/// The rows one fitted preprocessing pipeline was fitted on, as it recorded them.
public struct PreprocessingFitRecord: Sendable, Hashable {
  public var model: String
  /// The fold's index in the plan.
  public var fold: Int
  public var fittedOn: RowSetFingerprint

  public init(model: String, fold: Int, fittedOn: RowSetFingerprint) {
    self.model = model
    self.fold = fold
    self.fittedOn = fittedOn
  }
}
