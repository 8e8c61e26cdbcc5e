import BenchbookData
import BenchbookSpec
import Foundation

/// `temporal-split`: the spec declares `time:` and its folds let models train
/// on rows dated after their test rows, so they learn from the future they are
/// asked to predict. Evidence per fold, then a forward-chaining shadow
/// evaluation (`ForwardChainingShadow`) measures the optimism per model.
public struct TemporalSplitCheck: AuditCheck {
  public static let id = AuditCheckID.temporalSplit
  public static let question =
    "Do models train on rows dated after their test rows? If so, how much better do they look than when trained on the past only?"

  let context: AuditContext
  /// Every fold's overlap with the future.
  let overlaps: [FoldOverlap]
  /// The forward-chaining splits, when some fold trains on the future; or why they cannot be made.
  let shadow: Result<ForwardChainingShadow.Shadow, ForwardChainingShadow.ShadowUnavailable>?
  /// How the splits are fitted: as cross-validation fits its folds.
  let scheduler: FoldScheduler

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) {
    self.context = context
    overlaps = Self.overlaps(context)
    shadow = overlaps.contains { $0.testRowsBeforeLatestTraining > 0 } ? ForwardChainingShadow.plan(context) : nil
    let splits = (try? shadow?.get())?.plan
    // kNN splits search one tree stored in time order, where each split's training rows are a run; decision trees
    // filter features sorted once; other models may take their rows in dataset order, gathered a run at a time.
    scheduler = FoldScheduler(
      models: context.spec.models,
      evaluator: FoldEvaluator(dataset: context.dataset, preprocessing: context.spec.preprocessing),
      storedRows: splits?.rowsInTime, folds: { _ in splits?.folds ?? [] }, reordersRows: true)
  }

  var splits: FoldPlan? { (try? shadow?.get())?.plan }

  /// The comparison with the spec's own folds needs their scores.
  public var needsSpecFolds: Bool { splits != nil }

  /// Every model on every forward-chaining split; a model that cannot be fitted on a split scores `nil` there.
  public func work() -> [AuditWork] {
    guard let splits else { return [] }
    let scheduler = scheduler
    return splits.folds.flatMap { fold in
      context.spec.models.indices.map { m in
        AuditWork(
          cost: scheduler.relativeCost(model: m) * 1_000_000 + fold.train.count,
          heldRows: scheduler.heldRows(model: m, fold: fold), sharedGroup: scheduler.sharedGroup(model: m, fold: fold)
        ) { () -> any Sendable in try? scheduler.evaluate(model: m, on: fold).scores.logLoss }
      }
    }
  }

  public func conclude(_ outputs: AuditOutputs, scores: AuditScores) -> CheckResult {
    let models = context.spec.models.count
    var forwardLogLoss = [[Double?]](repeating: [], count: models)
    for (index, output) in outputs.first.enumerated() { forwardLogLoss[index % models].append(output as! Double?) }
    let forward: Result<ForwardChainingShadow.Scores, ForwardChainingShadow.ShadowUnavailable>
    switch shadow {
    case .success(let made)?:
      forward = .success(
        ForwardChainingShadow.Scores(
          logLoss: forwardLogLoss, folds: made.plan.folds.count, blockRows: made.blockRows,
          scoredRows: made.plan.folds.map(\.test.count).max() ?? 0))
    case .failure(let reason)?: forward = .failure(reason)
    case nil: forward = .failure(.init(reason: "not needed"))
    }
    return Self.run(context, overlaps: overlaps, specLogLoss: scores.logLoss, forward: forward)
  }

  /// One fold's overlap with the future. Rows are compared by their time, never by file order.
  public struct FoldOverlap: Codable, Sendable, Hashable {
    public var fold: Int
    public var `repeat`: Int
    public var testRows: Int
    /// Test rows dated strictly before the fold's latest training row.
    public var testRowsBeforeLatestTraining: Int
    public var share: Double

    /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
    enum CodingKeys: String, CodingKey {
      case fold, `repeat`, share, testRows
      case testRowsBeforeLatestTraining = "testRowsBeforeLatestTrainingRow"  // test_rows_before_latest_training_row
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
  }

  public struct Evidence: Codable, Sendable, Hashable {
    public var timeColumn: String
    public var folds: [FoldOverlap]
    /// Folds with at least one test row dated before a training row.
    public var foldsTrainingOnTheFuture: Int
    public var forwardChaining: ForwardChaining?
    /// Why there is no forward-chaining comparison, when there is none.
    public var forwardChainingUnavailable: String?
  }

  /// Every fold's overlap, by time.
  public static func overlaps(_ context: AuditContext) -> [FoldOverlap] {
    guard let time = context.dataset.time else { return [] }
    // The latest time of each block of rows, so that a run of training rows (a k-fold's are two runs of nine tenths
    // of the rows) reads its whole blocks' maxima instead of every row: the flagship's ten folds read 3.3 million
    // times otherwise.
    let blockRows = 1024
    let blockLatest = stride(from: 0, to: time.count, by: blockRows).map { first in
      time[first..<min(first + blockRows, time.count)].reduce(-Double.infinity) { max($0, $1) }
    }
    return context.plan.folds.map { fold in
      var latest = -Double.infinity
      fold.train.forEachRun { run in
        var row = run.lowerBound
        while row < run.upperBound {
          if row % blockRows == 0 && row + blockRows <= run.upperBound {
            latest = max(latest, blockLatest[row / blockRows])
            row += blockRows
          } else {
            latest = max(latest, time[row])
            row += 1
          }
        }
      }
      var before = 0
      fold.test.forEachRow { before += time[$0] < latest ? 1 : 0 }
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

extension AuditCheckID {
  /// Resampling lets training rows come after test rows in time.
  public static let temporalSplit = AuditCheckID(rawValue: "temporal-split")
}

// MARK: - Report text

extension TemporalSplitCheck {
  public static func title(_ finding: AuditFinding) -> String {
    "the folds train on the future (by `\(finding.subject)`)"
  }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    guard let evidence = finding.evidence.decode(Evidence.self) else { return "" }
    return evidenceText(evidence, results)
  }

  static func evidenceText(_ evidence: Evidence, _ results: ExperimentResults) -> String {
    var text = ""
    var table = MarkdownTable([
      ("fold", .right), ("test rows", .right), ("dated before the fold's latest training row", .right),
    ])
    for fold in evidence.folds.prefix(20) {
      table.append([
        AuditWording.foldName(fold.fold, fold.repeat, results), Format.count(fold.testRows),
        "\(Format.count(fold.testRowsBeforeLatestTraining)) (\(Format.percent(fold.share)))",
      ])
    }
    text += table.markdown
    if evidence.folds.count > 20 { text += "\n…and \(evidence.folds.count - 20) more folds, listed in results.json.\n" }
    if let chaining = evidence.forwardChaining {
      text += "\n**Optimism gap.** The same models, trained only on the past: \(chaining.folds) forward-chaining "
      text += "split\(chaining.folds == 1 ? "" : "s") over rows sorted by `\(evidence.timeColumn)` (each trains on "
      text += "everything before its test block"
      text += chaining.gap > 0 ? ", leaving \(chaining.gap) rows out between them)" : ")"
      if let block = chaining.testRowsPerSplit, let scored = chaining.scoredTestRowsPerSplit, scored < block {
        text +=
          ", each scored on \(Format.count(scored)) of its \(Format.count(block)) test rows, evenly spaced in time"
      }
      text += ". The gap is the forward-chaining log-loss minus the spec's; a positive gap is how much the spec's "
      text += "folds flatter the model. It counts as real when it exceeds "
      text += "max(\(Format.number(results.audit?.thresholds.optimismGap ?? 0.01)), "
      text += "\(Format.number(results.audit?.thresholds.optimismStandardErrors ?? 2)) × SE).\n\n"
      var gaps = MarkdownTable([
        ("model", .left), ("spec's log-loss", .right), ("forward-chaining log-loss", .right), ("gap", .right),
        ("SE", .right), ("beyond chance", .left),
      ])
      for model in chaining.models {
        gaps.append([
          model.label, Format.fixed(model.specLogLoss, 4), Format.fixed(model.forwardLogLoss, 4),
          model.gap.map { ($0 >= 0 ? "+" : "") + Format.difference($0) } ?? "–",
          model.standardError.map { Format.difference($0) } ?? "–", model.exceeds ? "yes" : "no",
        ])
      }
      text += gaps.markdown + "\n"
      text += "Ranking by the spec's folds: \(chaining.specRanking.joined(separator: ", ")). "
      text += "Trained on the past only: \(chaining.forwardRanking.joined(separator: ", ")). "
      if chaining.winnerChanged, let old = chaining.specRanking.first, let new = chaining.forwardRanking.first,
        let oldLoss = chaining.models.first(where: { $0.label == old })?.forwardLogLoss,
        let newLoss = chaining.models.first(where: { $0.label == new })?.forwardLogLoss
      {
        text += "**The winner changes**: trained on the past, \(new) beats \(old) by "
        text += "\(Format.difference(oldLoss - newLoss)) in log-loss"
        let noise = chaining.models.filter { [old, new].contains($0.label) }.compactMap(\.standardError).min()
        if let noise, oldLoss - newLoss < noise {
          text += ", well inside the folds' noise (SE \(Format.difference(noise))): trained on the past the two tie"
        }
        text += ".\n"
      } else if chaining.winnerChanged {
        text += "**The winner changes.**\n"
      } else {
        text +=
          chaining.rankingChanged
          ? "The winner is the same; the order behind it changes.\n" : "The ranking is the same.\n"
      }
    } else if let why = evidence.forwardChainingUnavailable {
      text += "\nNo forward-chaining comparison: \(why).\n"
    }
    return text
  }
}
