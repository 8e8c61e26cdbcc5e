import BenchbookEvaluation

/// Title, question, and the answer in one sentence: the best model, and by how much. With tuning or a budget,
/// one sentence more for each: whether tuning paid, and what an app can afford.
struct HeadlineSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let results = context.results
    var text = "# \(results.experiment)\n\n"
    if let description = results.description { text += "> \(description)\n\n" }
    guard let winner = context.winner, let best = winner.logLoss.mean else {
      return text + "No model produced a score.\n"
    }
    let folds = winner.folds.count
    var answer =
      "**\(capitalized(context.name(winner))) scores best**, with a mean log-loss of "
      + "\(Format.fixed(best, 4)) over \(folds) test folds"
    let comparisons = WinnerComparison(context)
    if let runnerUp = comparisons.rows.first {
      let gap = Format.difference(runnerUp.meanDifference)
      answer += ", \(gap) lower than \(context.name(runnerUp.model))"
      if let test = runnerUp.test {
        answer +=
          test.pValue < WinnerComparison.alpha
          ? "; it is better than every other model by the corrected resampled t-test (p \(pPhrase(test.pValue)))"
          : "; the corrected resampled t-test cannot tell the two apart (p = \(Format.pValue(test.pValue)))"
        let tied = comparisons.indistinguishable.filter { $0.label != runnerUp.model.label }
        if test.pValue >= WinnerComparison.alpha && !tied.isEmpty {
          answer += ", nor \(list(tied.map(\.label))) from \(winner.label)"
        }
      }
    }
    if let variants = variantNested(context, winner: winner.label) { answer += variants }
    text += answer + ".\n"
    if let tuned = tuning(context) { text += "\n\(tuned)\n" }
    if let budget = context.results.budget { text += "\n\(self.budget(budget, context))\n" }
    return text
  }

  /// The best tuned model by its nested score, against the defaults it replaces: did tuning pay?
  private func tuning(_ context: ReportContext) -> String? {
    guard let model = context.ranked.first(where: { $0.tuning != nil }), let tuning = model.tuning,
      let nested = model.logLoss.mean
    else { return nil }
    let chosen = TuningText.settings(tuning.finalParams, of: tuning)
    var text =
      model.label == context.winner?.label
      ? "It was tuned, so its score is nested: settings chosen on each training fold alone (\(chosen) on all rows)"
      : "Of the tuned models, **\(context.name(model))** scores best, with a nested log-loss of "
        + "\(Format.fixed(nested, 4)) (\(chosen) on all rows)"
    if let defaults = tuning.defaults.flatLogLoss.mean {
      let gain = defaults - nested
      text += "; with its defaults (\(TuningText.settings(tuning.defaults.params, of: tuning))) it scores "
      text += "\(Format.fixed(defaults, 4)), so tuning "
      text +=
        gain >= 0 ? "lowers its log-loss by \(Format.difference(gain))" : "raises it by \(Format.difference(-gain))"
    }
    return text + "."
  }

  /// When the winner is one of several variants of one algorithm, its flat score was picked on the folds it is
  /// scored on: the choice's nested score (`selection-bias`) beside it, so the first paragraph never quotes the
  /// flattered figure alone.
  private func variantNested(_ context: ReportContext, winner: String) -> String? {
    guard let findings = context.results.audit?.findings else { return nil }
    for finding in findings where finding.check == .selectionBias {
      guard let evidence = finding.evidence.decode(SelectionBiasCheck.Evidence.self), evidence.source == "variants",
        evidence.models.contains(winner)
      else { continue }
      return "; it was picked among \(evidence.configurations) variants on these folds, and chosen on inner folds "
        + "instead the choice scores a nested \(Format.fixed(evidence.nestedLogLoss, 4)) against the best flat "
        + "\(Format.fixed(evidence.bestFlatLogLoss, 4))"
    }
    return nil
  }

  /// The best model an app can afford, or that none fits.
  private func budget(_ budget: BudgetRecord, _ context: ReportContext) -> String {
    let limits = BudgetFit.describe(budget)
    guard let (model, score) = BudgetFit.best(context) else {
      return "**No model fits inside the budget** (\(limits)): no untuned model is inside it, and no tuned "
        + "model found a configuration inside it on every outer fold."
    }
    var text = "**Inside the budget** (\(limits)), **\(context.name(model))** scores best"
    if model.tuning != nil { text += " choosing only among its configurations inside it" }
    text += ", with a \(model.tuning != nil ? "nested " : "")log-loss of \(Format.fixed(score, 4))"
    if model.label == context.winner?.label && model.tuning == nil { text += ": the best model overall fits" }
    return text + "."
  }

  private func pPhrase(_ p: Double) -> String {
    p < 0.001 ? "< 0.001" : "= \(Format.pValue(p))"
  }

  private func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

/// "A", "A and B", "A, B and C".
func list(_ items: [String]) -> String {
  switch items.count {
  case 0: ""
  case 1: items[0]
  default: items.dropLast().joined(separator: ", ") + " and " + items.last!
  }
}
