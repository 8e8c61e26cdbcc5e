/// The figures, embedded with relative links so they show on GitHub.
struct PlotsSection: ReportSection {
  static let captions: [String: String] = [
    "log-loss-box":
      "The spread of per-fold log-loss for each model, best first. Boxes span the middle half of the folds.",
    "log-loss-folds":
      "Each model's log-loss on each test fold. Lines that move together mark folds that are hard for every model.",
    "timing":
      "Mean fit and predict time per fold, with bars from the fastest to the slowest fold (changes from run to run).",
    "trade-off":
      "What each model costs an app against how well it scores: the size of its Core ML file (or, without one, its fit time).",
    "pareto-size":
      "Every configuration of every tuned model, and every untuned model, by flat log-loss against its Core ML file. "
      + "The step line is the Pareto front: the lowest log-loss a file of at most that size reaches. Rings mark what "
      + "each tuned model ships, squares its defaults, the dashed line the budget.",
    "pareto-latency":
      "The same against one-row prediction time (99th percentile, changes from run to run); defaults outside the grid "
      + "have no measured latency and are left out.",
  ]

  func render(_ context: ReportContext) -> String? {
    var text = "## Plots\n\n"
    let ours = context.plots.filter { !LeakAuditSection.plotIDs.contains($0.id) }
    let drawn = ours.filter { $0.skippedBecause == nil }
    for plot in drawn {
      text += "### \(plot.title)\n\n![\(plot.title)](\(plot.fileName))\n\n"
      if let caption = Self.captions[plot.id] { text += "\(caption)\n\n" }
    }
    let skipped = ours.filter { $0.skippedBecause != nil }
    if !skipped.isEmpty {
      text += "Plots not drawn:\n\n"
      for plot in skipped { text += "- \(plot.title) (`\(plot.fileName)`): \(plot.skippedBecause!)\n" }
    }
    return text.trimmingTrailingNewlines() + "\n"
  }
}

extension String {
  func trimmingTrailingNewlines() -> String {
    var text = self
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
