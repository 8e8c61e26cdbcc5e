import BenchbookData
import BenchbookSpec
import Foundation

/// `temporal-split`: the spec declares `time:` and its folds let models train
/// on rows dated after their test rows, so they learn from the future they are
/// asked to predict. Evidence per fold, then a forward-chaining shadow
/// evaluation (`ForwardChainingShadow`) measures the optimism per model.
public enum TemporalSplitCheck {
  /// One fold's overlap with the future. Rows are compared by their time, never by file order.
  public struct FoldOverlap: Codable, Sendable, Hashable {
    public var fold: Int
    public var `repeat`: Int
    public var testRows: Int
    /// Test rows dated strictly before the fold's latest training row.
    public var testRowsBeforeLatestTraining: Int
    public var share: Double

    enum CodingKeys: String, CodingKey {
      case fold
      case `repeat`
      case share
      case testRows = "test_rows"
      case testRowsBeforeLatestTraining = "test_rows_before_latest_training_row"
    }
  }

  /// One model: the spec's mean log-loss, the forward-chaining one, and the gap between them.
  public struct ModelGap: Codable, Sendable, Hashable {
    public var label: String
    public var specLogLoss: Double
    /// `nil` when the model could not be fitted on some forward split.
    public var forwardLogLoss: Double?
    /// forward − spec: positive when the spec's folds flatter the model.
    public var gap: Double?
    /// sqrt(s²_forward / k_forward + s²_spec / k_spec), sample variances over folds.
    public var standardError: Double?
    /// Whether the gap exceeds max(optimism_gap, optimism_se × SE).
    public var exceeds: Bool

    enum CodingKeys: String, CodingKey {
      case label, gap, exceeds
      case specLogLoss = "spec_log_loss"
      case forwardLogLoss = "forward_log_loss"
      case standardError = "standard_error"
    }
  }

  public struct ForwardChaining: Codable, Sendable, Hashable {
    public var folds: Int
    public var gap: Int
    public var models: [ModelGap]
    /// Model labels, best first.
    public var specRanking: [String]
    public var forwardRanking: [String]
    public var winnerChanged: Bool
    public var rankingChanged: Bool
    /// Rows in each split's test block, and how many of them, evenly spaced in time, were scored.
    public var testRowsPerSplit: Int?
    public var scoredTestRowsPerSplit: Int?

    enum CodingKeys: String, CodingKey {
      case folds, gap, models
      case testRowsPerSplit = "test_rows_per_split"
      case scoredTestRowsPerSplit = "scored_test_rows_per_split"
      case specRanking = "spec_ranking"
      case forwardRanking = "forward_ranking"
      case winnerChanged = "winner_changed"
      case rankingChanged = "ranking_changed"
    }
  }

  public struct Evidence: Codable, Sendable, Hashable {
    public var timeColumn: String
    public var folds: [FoldOverlap]
    /// Folds with at least one test row dated before a training row.
    public var foldsTrainingOnTheFuture: Int
    public var forwardChaining: ForwardChaining?
    /// Why there is no forward-chaining comparison, when there is none.
    public var forwardChainingUnavailable: String?

    enum CodingKeys: String, CodingKey {
      case folds
      case timeColumn = "time_column"
      case foldsTrainingOnTheFuture = "folds_training_on_the_future"
      case forwardChaining = "forward_chaining"
      case forwardChainingUnavailable = "forward_chaining_unavailable"
    }
  }

  /// Every fold's overlap, by time.
  public static func overlaps(_ context: AuditContext) -> [FoldOverlap] {
    guard let time = context.dataset.time else { return [] }
    return context.plan.folds.map { fold in
      let latest = fold.train.reduce(-Double.infinity) { max($0, time[$1]) }
      let before = fold.test.reduce(0) { $0 + (time[$1] < latest ? 1 : 0) }
      return FoldOverlap(
        fold: fold.index, repeat: fold.repeatIndex, testRows: fold.test.count, testRowsBeforeLatestTraining: before,
        share: fold.test.isEmpty ? 0 : Double(before) / Double(fold.test.count))
    }
  }

  /// The finding, from the overlaps and both evaluations' per-fold log-loss.
  ///
  /// - Parameters:
  ///   - specLogLoss: per model (spec order), per fold of the spec's plan.
  ///   - forward: the shadow evaluation's scores, or why there is none.
  public static func run(
    _ context: AuditContext, overlaps: [FoldOverlap], specLogLoss: [[Double]],
    forward: Result<ForwardChainingShadow.Scores, ForwardChainingShadow.ShadowUnavailable>
  ) -> CheckResult {
    guard let column = context.timeColumn else { return .skipped("the spec declares no time column") }
    let offending = overlaps.filter { $0.testRowsBeforeLatestTraining > 0 }
    guard !offending.isEmpty else {
      return CheckResult(note: "every test fold lies after all of its training rows in `\(column)`")
    }
    var evidence = Evidence(
      timeColumn: column, folds: overlaps, foldsTrainingOnTheFuture: offending.count, forwardChaining: nil,
      forwardChainingUnavailable: nil)
    let worst = offending.map(\.share).max() ?? 0
    let total = context.plan.folds.count
    var message =
      "In \(offending.count) of \(total) folds the models train on rows dated after some of their test rows "
      + "(up to \(percent(worst)) of a test fold lies before its fold's latest training row, by `\(column)`): "
      + "they learn from the future they are asked to predict, so the scores are likely too good for a model that "
      + "must predict what comes next."
    var severity = AuditSeverity.info
    switch forward {
    case .failure(let unavailable):
      evidence.forwardChainingUnavailable = unavailable.reason
      message += " No forward-chaining comparison was possible: \(unavailable.reason)."
      severity = .warning
    case .success(let scores):
      var chaining = compare(context, specLogLoss: specLogLoss, forwardLogLoss: scores.logLoss, folds: scores.folds)
      chaining.testRowsPerSplit = scores.blockRows
      chaining.scoredTestRowsPerSplit = scores.scoredRows
      evidence.forwardChaining = chaining
      message += " " + describe(chaining)
      if chaining.winnerChanged || chaining.models.contains(where: \.exceeds) { severity = .warning }
    }
    let finding = AuditFinding(
      check: .temporalSplit, severity: severity, subject: column, message: message,
      evidence: EvidenceValue(encoding: evidence))
    return CheckResult(
      findings: [finding], note: "\(offending.count) of \(total) folds train on rows dated after test rows")
  }

  static func compare(_ context: AuditContext, specLogLoss: [[Double]], forwardLogLoss: [[Double?]], folds: Int)
    -> ForwardChaining
  {
    let thresholds = context.thresholds
    let labels = context.spec.models.map(\.label)
    var gaps: [ModelGap] = []
    for (m, label) in labels.enumerated() {
      let spec = specLogLoss[m]
      let specMean = mean(spec)
      let forward = forwardLogLoss[m]
      guard forward.allSatisfy({ $0 != nil }), !forward.isEmpty else {
        gaps.append(
          ModelGap(
            label: label, specLogLoss: specMean, forwardLogLoss: nil, gap: nil, standardError: nil, exceeds: false))
        continue
      }
      let values = forward.map { $0! }
      let forwardMean = mean(values)
      let gap = forwardMean - specMean
      let standardError = (sampleVariance(values) / Double(values.count) + sampleVariance(spec) / Double(spec.count))
        .squareRoot()
      let bound = max(thresholds.optimismGap, thresholds.optimismStandardErrors * standardError)
      gaps.append(
        ModelGap(
          label: label, specLogLoss: specMean, forwardLogLoss: forwardMean, gap: gap, standardError: standardError,
          exceeds: gap.isFinite && gap > bound))
    }
    let specRanking = rank(gaps.map { ($0.label, $0.specLogLoss) })
    let forwardRanking = rank(gaps.map { ($0.label, $0.forwardLogLoss ?? .infinity) })
    return ForwardChaining(
      folds: folds, gap: context.spec.audit.gap, models: gaps, specRanking: specRanking,
      forwardRanking: forwardRanking, winnerChanged: specRanking.first != forwardRanking.first,
      rankingChanged: specRanking != forwardRanking)
  }

  static func describe(_ chaining: ForwardChaining) -> String {
    var text = "Trained only on the past (\(chaining.folds) forward-chaining split\(chaining.folds == 1 ? "" : "s")"
    text += chaining.gap > 0 ? ", leaving \(chaining.gap) rows between training and test), " : "), "
    if let winner = chaining.models.first(where: { $0.label == chaining.specRanking.first }),
      let forward = winner.forwardLogLoss, let gap = winner.gap
    {
      text += "\(winner.label) scores \(fixed(forward)) instead of \(fixed(winner.specLogLoss)) "
      text += "(optimism gap \(signed(gap))\(winner.standardError.map { ", SE \(fixed($0))" } ?? ""))"
    } else {
      text += "the spec's winner could not be scored"
    }
    let exceeding = chaining.models.filter(\.exceeds)
    if !exceeding.isEmpty {
      let names = exceeding.map { "\($0.label) (\(signed($0.gap ?? 0)))" }
      text += "; the gap is beyond chance for \(names.joined(separator: ", "))"
    }
    if chaining.winnerChanged, let old = chaining.specRanking.first, let new = chaining.forwardRanking.first {
      text += "; the winner changes from \(old) to \(new)"
      let forward = { (label: String) in chaining.models.first { $0.label == label }?.forwardLogLoss }
      if let newLoss = forward(new), let oldLoss = forward(old) {
        text += ", ahead of \(old) by \(AuditWording.fixed(oldLoss - newLoss, 5)) in forward-chaining log-loss"
      }
      text += "."
    } else if chaining.rankingChanged {
      text += "; the winner stays \(chaining.specRanking.first ?? "–"), but the order of the others changes."
    } else {
      text += "; the ranking stays the same."
    }
    return text
  }

  /// Labels by value, best first; ties keep spec order.
  static func rank(_ values: [(String, Double)]) -> [String] {
    values.enumerated().sorted { a, b in
      a.element.1 != b.element.1 ? a.element.1 < b.element.1 : a.offset < b.offset
    }.map(\.element.0)
  }

  static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }

  static func sampleVariance(_ values: [Double]) -> Double {
    guard values.count >= 2 else { return 0 }
    let m = mean(values)
    return values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)
  }

  static func fixed(_ value: Double) -> String { String(format: "%.4f", value) }
  static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "−") + String(format: "%.4f", abs(value)) }
  static func percent(_ share: Double) -> String { AuditWording.percent(share) }
}
