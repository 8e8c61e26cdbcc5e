import BenchbookEvaluation
import BenchbookSpec
import Foundation

/// Each audit finding in words a newcomer can follow: a plain title, what the
/// check looks for, and its evidence as short tables and lists.
enum AuditFindingText {
  static func mark(_ severity: AuditSeverity) -> String {
    switch severity {
    case .error: "⛔ Error"
    case .warning: "⚠️ Warning"
    case .info: "ℹ️ Note"
    }
  }

  /// A heading for the finding, without jargon.
  static func title(_ finding: AuditFinding) -> String {
    let subject = "`\(finding.subject)`"
    switch finding.check {
    case .temporalSplit: return "the folds train on the future (by \(subject))"
    case .postOutcomeFeature: return "\(subject) is known only after the prediction"
    case .suspectLeak:
      let screens = finding.evidence.decode(SuspectLeakCheck.Evidence.self)?.screens ?? []
      return screens == ["pseudo-r2"]
        ? "\(finding.subject)'s scores look too good to be true" : "\(subject) is suspiciously predictive"
    case .timeProxy: return "\(subject) encodes time"
    case .crossFoldDuplicates: return "test rows are copies of training rows"
    case .preprocessingScope:
      return finding.subject == "input"
        ? "the data arrive already standardised" : "a transform was fitted on the wrong rows"
    case .classCoverage: return "some folds never train on class \(subject)"
    case .selectionBias:
      return finding.severity == .info
        ? "choosing among \(subject)'s configurations costs nothing measurable"
        : "the best of \(subject)'s configurations is flattered by its choice"
    }
  }

  /// What the check is for, in one sentence, for the list of checks.
  static let purposes: [AuditCheckID: String] = [
    .temporalSplit:
      "Do models train on rows dated after their test rows? If so, how much better do they look than when trained on the past only?",
    .postOutcomeFeature: "Does the spec say a feature becomes known only after the moment of prediction?",
    .suspectLeak:
      "Is a feature, on a sample of training rows, so predictive that it probably gives the answer away?",
    .timeProxy: "Does a feature rise or fall steadily with time, like a row number or a timestamp?",
    .crossFoldDuplicates: "Are test rows identical to training rows of the same fold?",
    .preprocessingScope:
      "Was every transform fitted on its training fold only, and did the data arrive already scaled?",
    .classCoverage: "Does every fold's training set hold every class?",
    .selectionBias:
      "Is a winner among configurations (tuning, or variants of one algorithm) scored on the folds it was picked on?",
  ]

  /// The evidence, rendered for the check that produced it; empty when there is nothing to add.
  static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    switch finding.check {
    case .temporalSplit:
      guard let evidence = finding.evidence.decode(TemporalSplitCheck.Evidence.self) else { return "" }
      return temporal(evidence, results)
    case .postOutcomeFeature:
      guard let evidence = finding.evidence.decode(PostOutcomeFeatureCheck.Evidence.self) else { return "" }
      var lines: [String] = []
      if let known = evidence.known { lines.append("declared `known: \(known)`") }
      if let compared = evidence.rowsCompared, let after = evidence.rowsKnownAfterPrediction {
        lines.append(
          "known after `predict_at` in \(Format.count(after)) of \(Format.count(compared)) rows"
            + (evidence.share.map { " (\(Format.percent($0)))" } ?? ""))
      }
      if let median = evidence.medianDelaySeconds { lines.append("median delay \(AuditWording.duration(median))") }
      if let line = evidence.firstLine { lines.append("first such row: data line \(line)") }
      return bullets(lines)
    case .suspectLeak:
      guard let evidence = finding.evidence.decode(SuspectLeakCheck.Evidence.self) else { return "" }
      var lines: [String] = []
      if let share = evidence.dropColumnShare, let with = evidence.logLoss, let without = evidence.logLossWithout,
        let model = evidence.model
      {
        lines.append(
          "drop-column: \(model)'s log-loss \(Format.fixed(with, 4)) with it, \(Format.fixed(without, 4)) without; "
            + "the difference is \(Format.percent(share)) of the null model's \(Format.fixed(evidence.nullLogLoss, 4))")
      }
      if let auc = evidence.singleFeatureAUC { lines.append("ROC AUC of the feature alone: \(Format.fixed(auc, 3))") }
      if let pseudo = evidence.pseudoR2 {
        lines.append("pseudo-R² = 1 − log-loss / null log-loss = \(Format.fixed(pseudo, 3))")
      }
      lines.append(
        "measured on \(Format.count(evidence.rows)) training rows of fold \(evidence.sourceFold + 1), "
          + "\(evidence.folds)-fold cross-validation within them")
      return bullets(lines)
    case .timeProxy:
      guard let evidence = finding.evidence.decode(TimeProxyCheck.Evidence.self) else { return "" }
      return bullets([
        "Spearman's rank correlation with `\(evidence.timeColumn)`: \(Format.fixed(evidence.spearman, 4)) over \(Format.count(evidence.rows)) rows"
      ])
    case .crossFoldDuplicates:
      guard let evidence = finding.evidence.decode(CrossFoldDuplicatesCheck.Evidence.self) else { return "" }
      var table = MarkdownTable([("fold", .right), ("test rows", .right), ("identical to a training row", .right)])
      let affected = evidence.folds.filter { $0.duplicates > 0 }
      for fold in affected.prefix(20) {
        table.append([
          foldName(fold.fold, fold.repeat, results), Format.count(fold.testRows),
          "\(Format.count(fold.duplicates)) (\(Format.percent(fold.share)))",
        ])
      }
      var text = table.markdown
      if affected.count > 20 { text += "\n…and \(affected.count - 20) more folds, listed in results.json.\n" }
      return text
    case .preprocessingScope:
      if let evidence = finding.evidence.decode(PreprocessingScopeCheck.StandardizedEvidence.self) {
        var table = MarkdownTable([("feature", .left), ("mean over all rows", .right), ("sd over all rows", .right)])
        for feature in evidence.features {
          table.append([feature.name, Format.difference(feature.mean), Format.fixed(feature.sd, 4)])
        }
        return table.markdown
      }
      guard let evidence = finding.evidence.decode(PreprocessingScopeCheck.ScopeEvidence.self) else { return "" }
      return bullets([
        "\(evidence.model), fold \(evidence.fold + 1): fitted on \(Format.count(evidence.fittedRows)) rows; its training fold has \(Format.count(evidence.trainingRows))"
      ])
    case .classCoverage:
      guard let evidence = finding.evidence.decode(ClassCoverageCheck.Evidence.self) else { return "" }
      let folds = evidence.folds.map { foldName($0, nil, results) }
      return bullets([
        "folds without `\(evidence.class)` in training: \(list(folds))",
        "their test rows of `\(evidence.class)`: \(Format.count(evidence.testRows)); rows of it in the data: \(Format.count(evidence.rowsInData))",
      ])
    case .selectionBias:
      guard let evidence = finding.evidence.decode(SelectionBiasCheck.Evidence.self) else { return "" }
      let choices = Dictionary(grouping: evidence.chosen, by: { $0 }).mapValues(\.count)
      let common = choices.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(3)
      return bullets([
        "best flat score: \(evidence.bestFlat), \(Format.fixed(evidence.bestFlatLogLoss, 4)) nats",
        "nested score: \(Format.fixed(evidence.nestedLogLoss, 4)) nats over \(evidence.chosen.count) outer folds",
        "optimism: \(Format.fixed(evidence.optimism, 4)) ± \(Format.fixed(evidence.standardError, 4)) nats",
        "chosen most often: "
          + common.map { "\($0.key) (\($0.value) fold\($0.value == 1 ? "" : "s"))" }.joined(separator: "; "),
      ])
    }
  }

  static func temporal(_ evidence: TemporalSplitCheck.Evidence, _ results: ExperimentResults) -> String {
    var text = ""
    var table = MarkdownTable([
      ("fold", .right), ("test rows", .right), ("dated before the fold's latest training row", .right),
    ])
    for fold in evidence.folds.prefix(20) {
      table.append([
        foldName(fold.fold, fold.repeat, results), Format.count(fold.testRows),
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

  static func foldName(_ fold: Int, _ repeatIndex: Int?, _ results: ExperimentResults) -> String {
    guard (results.resampling.repeats ?? 1) > 1, let repeatIndex else { return "\(fold + 1)" }
    return "\(repeatIndex + 1).\(fold % max(1, results.resampling.folds) + 1)"
  }

  static func bullets(_ lines: [String]) -> String {
    lines.map { "- \($0)\n" }.joined()
  }
}
