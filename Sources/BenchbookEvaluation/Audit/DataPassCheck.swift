import BenchbookData

/// A check that fits nothing: one pass over the data and the folds (`run(_:)`), in the audit's pool beside the
/// fits, whose result is the check's conclusion.
public protocol DataPassCheck: AuditCheck {
  var context: AuditContext { get }
  /// The whole check.
  static func run(_ context: AuditContext) -> CheckResult
}

extension DataPassCheck {
  public func work() -> [AuditWork] {
    let context = context
    return [AuditWork(cost: AuditWork.dataPassCost) { () -> any Sendable in Self.run(context) }]
  }

  public func conclude(_ outputs: AuditOutputs, scores: AuditScores) -> CheckResult {
    outputs.first[0] as! CheckResult
  }
}
