import BenchbookEvaluation

/// Title, question, and the answer in one sentence: the best model, and by how much.
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
    return text + answer + ".\n"
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
