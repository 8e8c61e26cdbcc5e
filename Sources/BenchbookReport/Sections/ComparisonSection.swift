import BenchbookEvaluation

/// Is the winner really better? Each model against the best on the same folds.
struct ComparisonSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let comparison = WinnerComparison(context)
    guard let winner = comparison.winner, !comparison.rows.isEmpty else { return nil }
    var text = "## Is the winner really better?\n\n"
    guard comparison.rows.contains(where: { $0.test != nil }) else {
      return text + "With a single test fold there is no spread to test against; run more folds to compare models.\n"
    }
    let repeated = context.results.resampling.repeats.map { $0 > 1 } ?? false
    text += "Every model is compared with \(winner.label) on the same test folds. Training sets of different folds "
    text += "overlap, so the folds are not independent and a plain paired t-test is far too confident. "
    if repeated {
      text += "This uses the corrected repeated k-fold test (Bouckaert & Frank, 2004), "
    } else {
      text += "This uses the corrected resampled t-test (Nadeau & Bengio, 2003), "
    }
    text += "which widens the variance by the ratio of test to training rows. "
    text += "A positive difference means worse than \(winner.label).\n\n"
    var table = MarkdownTable([
      ("model", .left), ("log-loss − \(winner.label)", .right), ("95% interval", .right), ("t", .right), ("p", .right),
      ("verdict", .left),
    ])
    for row in comparison.rows {
      guard let test = row.test else { continue }
      let verdict = test.pValue < WinnerComparison.alpha ? "worse" : "indistinguishable"
      table.append([
        row.model.label, Format.difference(row.meanDifference),
        "[\(Format.difference(test.lower)), \(Format.difference(test.upper))]", Format.fixed(test.t, 2),
        Format.pValue(test.pValue), verdict,
      ])
    }
    text += table.markdown + "\n"
    let tied = comparison.indistinguishable.map(\.label)
    if tied.isEmpty {
      text += "At α = 0.05, \(winner.label) is better than every other model.\n"
    } else {
      text +=
        "At α = 0.05, \(list(tied)) \(tied.count == 1 ? "is" : "are") statistically indistinguishable from \(winner.label).\n"
    }
    return text
  }
}
