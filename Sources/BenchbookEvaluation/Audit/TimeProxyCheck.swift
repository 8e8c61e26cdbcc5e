import BenchbookData
import BenchbookSpec

/// `time-proxy`: a numeric feature nearly monotonic in time (|Spearman ρ| with
/// the time column at or above the threshold), such as a sequential id or a
/// timestamp used as a number. It tells a model when a row happened, which
/// shuffled folds reward and the future does not. Warning.
///
/// When the folds already respect time (time-ordered outer folds, and time-ordered inner folds for tuning), every
/// model trains only on the past of its test rows, so a time proxy cannot leak the future there: a note, not a
/// warning.
///
/// Categorical features are not screened: their categories have no order.
public struct TimeProxyCheck: DataPassCheck {
  public static let id = AuditCheckID.timeProxy
  public static let question = "Does a feature rise or fall steadily with time, like a row number or a timestamp?"

  public let context: AuditContext

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) { self.context = context }

  public struct Evidence: Codable, Sendable, Hashable {
    public var timeColumn: String
    public var spearman: Double
    public var rows: Int
  }

  public static func run(_ context: AuditContext) -> CheckResult {
    guard let column = context.timeColumn, let time = context.dataset.time else {
      return .skipped("the spec declares no time column")
    }
    let dataset = context.dataset
    let numeric = dataset.features.filter { $0.type == .numeric }
    guard !numeric.isEmpty else { return .skipped("no numeric feature to compare with time") }
    let timeRanks = SortedOrder.averageRanks(time)
    let respectsTime = foldsRespectTime(context.spec)
    var findings: [AuditFinding] = []
    for feature in numeric {
      let values = dataset.x.column(feature.columns.lowerBound)
      guard let rho = SpearmanCorrelation.pearson(SortedOrder.averageRanks(values), timeRanks),
        abs(rho) >= context.thresholds.timeProxySpearman
      else { continue }
      let direction = rho > 0 ? "rises" : "falls"
      let opening =
        "`\(feature.name)` \(direction) almost steadily with `\(column)` (Spearman ρ = \(AuditWording.fixed(rho, 3))): "
        + "it tells a model when a row happened. "
      let message =
        respectsTime
        ? opening
          + "The folds already train only on rows dated before their test rows (\(timeOrderedFolds(context.spec))), "
          + "so it cannot leak the future here: a note. It still ties the model to the periods it has seen."
        : opening
          + "When training and test rows come from the same periods, a model can "
          + "learn what happened in each period rather than what causes the outcome, and new data will come from a "
          + "period it never saw. Drop it unless it is a quantity that truly recurs (a calendar month over many years, say)."
      findings.append(
        AuditFinding(
          check: .timeProxy, severity: respectsTime ? .info : .warning, subject: feature.name, message: message,
          evidence: EvidenceValue(encoding: Evidence(timeColumn: column, spearman: rho, rows: values.count))))
    }
    return CheckResult(
      findings: findings,
      note: "\(numeric.count) numeric feature\(numeric.count == 1 ? "" : "s") compared with `\(column)` by Spearman's ρ"
    )
  }
}

extension TimeProxyCheck {
  /// Whether every fit of the run trains on the past only: the outer folds are time-ordered, and so are the inner
  /// folds tuning chooses on (the variants of `selection-bias` take the same inner folds tuning would).
  static func foldsRespectTime(_ spec: ExperimentSpec) -> Bool {
    type(of: spec.resampling).ordersByTime && (!spec.tunes || spec.tune.inner.ordersByTime)
  }

  /// The folds in words, for the note.
  static func timeOrderedFolds(_ spec: ExperimentSpec) -> String {
    spec.tunes ? "`\(type(of: spec.resampling).id)`, forward-chaining inner folds" : "`\(type(of: spec.resampling).id)`"
  }
}

// MARK: - Report text

extension TimeProxyCheck {
  public static func title(_ finding: AuditFinding) -> String { "`\(finding.subject)` encodes time" }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    guard let evidence = finding.evidence.decode(Evidence.self) else { return "" }
    return AuditWording.bullets([
      "Spearman's rank correlation with `\(evidence.timeColumn)`: \(Format.fixed(evidence.spearman, 4)) over \(Format.count(evidence.rows)) rows"
    ])
  }
}

extension AuditCheckID {
  /// A feature nearly monotonic in time, such as a row id.
  public static let timeProxy = AuditCheckID(rawValue: "time-proxy")
}
