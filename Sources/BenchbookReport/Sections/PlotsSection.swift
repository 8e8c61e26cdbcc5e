import BenchbookEvaluation
import BenchbookExport
import Foundation

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
    "reliability":
      "Predictions pooled over the test folds (for a tuned model, the nested ones), in ten bins of predicted probability: "
      + "points below the diagonal mean the model is too sure, above it too timid. The panel beneath gives each model's "
      + "share of predictions per bin, and the table the counts.",
  ]

  /// Predictions per bin, per model, beside the reliability diagram: a point from a handful of rows means little.
  static func calibrationCounts(_ results: ExperimentResults) -> String {
    let models = RankedTable.rank(results.models).filter { $0.calibration != nil }
    guard let bins = models.first?.calibration?.bins else { return "" }
    var table = MarkdownTable([("predicted", .left)] + models.map { ($0.label, .right) })
    for (index, bin) in bins.enumerated() {
      let range = String(format: "%.1f–%.1f", bin.lower, bin.upper)
      table.append(
        [range]
          + models.map { model in
            guard let bin = model.calibration?.bins[index], bin.count > 0, let rate = bin.observedRate else {
              return "–"
            }
            return "\(Format.count(bin.count)) (\(String(format: "%.2f", rate)))"
          })
    }
    return "Predictions per bin, and in brackets the observed rate:\n\n" + table.markdown + "\n"
  }

  func render(_ context: ReportContext) -> String? {
    var text = "## Plots\n\n"
    let ours = context.plots.filter { !LeakAuditSection.plotIDs.contains($0.id) }
    let drawn = ours.filter { $0.skippedBecause == nil }
    for plot in drawn {
      text += "### \(plot.title)\n\n![\(plot.title)](\(plot.fileName))\n\n"
      if var caption = Self.captions[plot.id] {
        // A budget on another format's files plots those sizes.
        if plot.id == "pareto-size", let format = context.results.budget?.format,
          let name = ExportFormats.named(format)?.name
        {
          caption = caption.replacingOccurrences(of: "its Core ML file", with: "its \(name) file")
        }
        text += "\(caption)\n\n"
      }
      if plot.id == "reliability" { text += Self.calibrationCounts(context.results) }
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
