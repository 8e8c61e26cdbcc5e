import BenchbookData
import BenchbookSpec

/// `post-outcome-feature`: a feature the spec says becomes known only after
/// the moment of prediction, by a `known:` declaration or by an `available_at`
/// time later than the row's `predict_at`. A model using it has information it
/// will not have when it predicts: always an error, the only sure way to catch
/// a leak such as the departure delay when predicting at booking time.
public struct PostOutcomeFeatureCheck: AuditCheck {
  public static let id = AuditCheckID.postOutcomeFeature
  public static let question = "Does the spec say a feature becomes known only after the moment of prediction?"

  let context: AuditContext

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) { self.context = context }

  /// Reads the spec and the data: nothing for the pool.
  public func conclude(_ outputs: AuditOutputs, scores: AuditScores) -> CheckResult { Self.run(context) }

  public struct Evidence: Codable, Sendable, Hashable {
    /// The spec's `known:` for the feature, when given.
    public var known: String?
    /// Rows with both times known, when the feature has `available_at`.
    public var rowsCompared: Int?
    /// Of those, rows whose value becomes known after the prediction is made.
    public var rowsKnownAfterPrediction: Int?
    public var share: Double?
    /// Median of (available_at − predict_at) over those rows, in seconds.
    public var medianDelaySeconds: Double?
    /// The first such row's data line.
    public var firstLine: Int?
  }

  public static func run(_ context: AuditContext) -> CheckResult {
    let definitions = context.spec.dataset.features
    let declared = definitions.filter { $0.known != nil || $0.availableAt != nil }
    guard !declared.isEmpty else {
      return .skipped("no feature says when it becomes known (`known:` or `available_at:`)")
    }
    var findings: [AuditFinding] = []
    for feature in declared {
      var evidence = Evidence()
      var reasons: [String] = []
      if let known = feature.known {
        evidence.known = known.rawValue
        if known.isLeak {
          let when =
            known == .afterOutcome ? "only once the outcome itself is known" : "only after the prediction is made"
          reasons.append("the spec declares it known \(when) (`known: \(known.rawValue)`)")
        }
      }
      if feature.availableAt != nil, let available = context.dataset.availableAt[feature.name],
        let predictAt = context.dataset.predictAt
      {
        var compared = 0
        var delays: [Double] = []
        var firstRow: Int?
        for row in available.indices where available[row].isFinite && predictAt[row].isFinite {
          compared += 1
          if available[row] > predictAt[row] {
            delays.append(available[row] - predictAt[row])
            if firstRow == nil { firstRow = row }
          }
        }
        evidence.rowsCompared = compared
        evidence.rowsKnownAfterPrediction = delays.count
        let share = compared == 0 ? 0 : Double(delays.count) / Double(compared)
        evidence.share = share
        if !delays.isEmpty {
          delays.sort()
          evidence.medianDelaySeconds = delays[delays.count / 2]
          let lines = context.dataset.lineNumbers
          evidence.firstLine = firstRow.flatMap { lines.indices.contains($0) ? lines[$0] : nil }
        }
        if share > context.thresholds.availableAfterShare, let median = evidence.medianDelaySeconds {
          reasons.append(
            "its `available_at` comes after `predict_at` in \(AuditWording.rows(delays.count)) of \(AuditWording.count(compared)) "
              + "(\(AuditWording.percent(share))), typically \(AuditWording.duration(median)) late")
        }
      }
      guard !reasons.isEmpty else { continue }
      let message =
        "`\(feature.name)` is not known when the prediction is made: \(AuditWording.list(reasons)). A model that uses it "
        + "sees part of the answer, so its scores here are better than it can do in use. Remove the feature, or move the "
        + "moment of prediction to when it is known."
      findings.append(
        AuditFinding(
          check: .postOutcomeFeature, severity: .error, subject: feature.name, message: message,
          evidence: EvidenceValue(encoding: evidence)))
    }
    let names = AuditWording.list(declared.map { "`\($0.name)`" })
    let note =
      declared.count == 1
      ? "1 feature says when it becomes known: \(names)"
      : "\(declared.count) features say when they become known: \(names)"
    return CheckResult(findings: findings, note: note)
  }
}

// MARK: - Report text

extension PostOutcomeFeatureCheck {
  public static func title(_ finding: AuditFinding) -> String {
    "`\(finding.subject)` is known only after the prediction"
  }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    guard let evidence = finding.evidence.decode(Evidence.self) else { return "" }
    var lines: [String] = []
    if let known = evidence.known { lines.append("declared `known: \(known)`") }
    if let compared = evidence.rowsCompared, let after = evidence.rowsKnownAfterPrediction {
      lines.append(
        "known after `predict_at` in \(Format.count(after)) of \(Format.count(compared)) rows"
          + (evidence.share.map { " (\(Format.percent($0)))" } ?? ""))
    }
    if let median = evidence.medianDelaySeconds { lines.append("median delay \(AuditWording.duration(median))") }
    if let line = evidence.firstLine { lines.append("first such row: data line \(line)") }
    return AuditWording.bullets(lines)
  }
}

extension AuditCheckID {
  /// A feature declared known only after the moment of prediction.
  public static let postOutcomeFeature = AuditCheckID(rawValue: "post-outcome-feature")
}
