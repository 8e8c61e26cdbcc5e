import BenchbookData
import BenchbookSpec

/// One leak-audit check as one type: the question it asks, what it needs (the data, the folds, fits), the findings it
/// concludes with, and how the report words them.
///
/// The audit (`LeakAudit`) lists the checks in contract order, runs the work of every check the spec keeps on in
/// one parallel pool, then concludes each in turn. Adding a check is a type conforming to this protocol and a line
/// in `LeakAudit.checks`.
public protocol AuditCheck: Sendable {
  /// The check's contract id: results files, `accept:` and `skip:` name it.
  static var id: AuditCheckID { get }
  /// What the check asks, in one sentence: the report lists it beside the check.
  static var question: String { get }
  /// Whether the check has a place in this spec's record at all. `selection-bias` has none when nothing is chosen
  /// among, so other results read as before.
  static func applies(to spec: ExperimentSpec) -> Bool

  /// Plans the check on a run: what it needs of the data, the folds and the run's scores.
  init(_ context: AuditContext, run: AuditRunRecord?)
  /// Whether it reads the spec's own folds' scores or fitted pipelines (`AuditScores`). Without a run to take them
  /// from (`benchbook audit`), the audit fits the spec's folds once for every check that asks.
  var needsSpecFolds: Bool { get }
  /// Work for the audit's pool, run with every other check's, costliest first.
  func work() -> [AuditWork]
  /// At most how many pieces of follow-up work it will ask for, so progress counts them from the start.
  var plannedFollowUp: Int { get }
  /// Work planned from the outputs of its first round (the drop-column screen refits the features the screens
  /// rank first).
  func followUp(_ outputs: [any Sendable], jobs: Int) -> [AuditWork]
  /// The findings, from its work's outputs (in the order `work` and `followUp` listed it) and the spec's folds'
  /// scores.
  func conclude(_ outputs: AuditOutputs, scores: AuditScores) -> CheckResult

  /// A plain heading for one of its findings.
  static func title(_ finding: AuditFinding) -> String
  /// A finding's evidence as Markdown (short tables and lists); empty when there is nothing to add.
  static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String
}

extension AuditCheck {
  public static func applies(to spec: ExperimentSpec) -> Bool { true }
  public var needsSpecFolds: Bool { false }
  public func work() -> [AuditWork] { [] }
  public var plannedFollowUp: Int { 0 }
  public func followUp(_ outputs: [any Sendable], jobs: Int) -> [AuditWork] { [] }
}

/// One piece of a check's work for the audit's pool: a fit, or a pass over the data.
public struct AuditWork: Sendable {
  /// A rough cost, so the longest work starts first; it never changes a result.
  public var cost: Int
  /// Data rows it holds at its largest, weighed against the memory budget (`FoldScheduler.heldRowsBudget`).
  public var heldRows: Int
  /// The group of fits sharing work it belongs to (a model's forward-chaining splits), for a staggered start.
  public var sharedGroup: Int?
  /// The work; its output goes back to the check.
  public var run: @Sendable () throws(ModelFailure) -> any Sendable

  public init(
    cost: Int, heldRows: Int = 0, sharedGroup: Int? = nil,
    _ run: @escaping @Sendable () throws(ModelFailure) -> any Sendable
  ) {
    self.cost = cost
    self.heldRows = heldRows
    self.sharedGroup = sharedGroup
    self.run = run
  }

  /// Cost of a pass over every row that sorts them: about as long as a mid-sized fit, so started early.
  public static let dataPassCost = 2_000_000
}

/// The outputs of a check's work, in the order it listed the work.
public struct AuditOutputs: Sendable {
  public var first: [any Sendable]
  public var followUp: [any Sendable]
}

/// What `benchbook run`'s main pass measured, so the audit need not refit it.
public struct AuditRunRecord: Sendable {
  /// Per model (spec order), per fold of the plan.
  public var logLoss: [[Double]]
  /// One per fitted pipeline of the cross-validation.
  public var fitRecords: [PreprocessingFitRecord]
  /// Per model, the nested and flat scores of a tuned model.
  public var tuning: [SelectionBiasCheck.TuningScores?]

  public init(
    logLoss: [[Double]], fitRecords: [PreprocessingFitRecord], tuning: [SelectionBiasCheck.TuningScores?] = []
  ) {
    self.logLoss = logLoss
    self.fitRecords = fitRecords
    self.tuning = tuning
  }
}

/// The spec's own folds as the checks read them: the run's scores, or the audit's own fits of the folds.
public struct AuditScores: Sendable {
  /// Per model (spec order), per fold of the plan; empty lists when nothing fitted the folds.
  public var logLoss: [[Double]]
  /// One per fitted pipeline of the folds; `nil` when nothing fitted them.
  public var fitRecords: [PreprocessingFitRecord]?
  /// Per model, a tuned model's nested and flat scores, when the run recorded them.
  public var tuning: [SelectionBiasCheck.TuningScores?]
  /// Whether a run's main pass gave these (tuned models' nested scores exist only then).
  public var fromRun: Bool
}
