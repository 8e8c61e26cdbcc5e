import BenchbookEvaluation

/// Fit and predict times, kept apart from the scores: they are the only figures
/// that change when the same spec is run again.
struct TimingSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let table = Self.table(context)
    let hasLatency = table.header.contains("batch")
    let jobs = context.results.environment.jobs
    var text = "### Timing\n\n"
    text += "Wall-clock seconds on the machine under *Reproduce*, with \(jobs) parallel job\(jobs == 1 ? "" : "s"). "
    text += "Fit includes fitting the preprocessing on the training fold; predict includes applying it. "
    // Without preprocessing an untuned kNN model's folds share one tree (`SharedNeighborTree`), built once.
    let sharesTree =
      context.results.preprocess.isEmpty
      ? context.results.models.first {
        $0.descriptor?.foldStrategy == .sharedNeighborTree && $0.tuning == nil && $0.folds.count > 1
      }?.descriptor : nil
    if let sharesTree {
      text += "Without preprocessing, \(sharesTree.displayName)' folds search one kd-tree over every row, each keeping "
      text += "its own training rows, so its fit per fold is that tree's build shared among the folds. "
    }
    if hasLatency {
      text += "One row is single-row prediction through the pipeline fitted on all rows, one row at a time after a "
      text += "warm-up (1,000 rows, 50th and 99th percentiles); batch is rows per second predicted 10,000 at a time. "
      text += "Both time Benchbook's own code on this machine, not Core ML on a phone. "
    }
    text += "These are the only figures that differ when the experiment is run again.\n\n"
    return text + table.markdown
  }

  /// Times per model, best log-loss first; the terminal prints the same table.
  static func table(_ context: ReportContext) -> MarkdownTable {
    let hasLatency = context.ranked.contains { $0.latencyMicroseconds != nil }
    var columns: [(String, MarkdownTable.Alignment)] = [
      ("model", .left), ("fit per fold", .right), ("predict per fold", .right), ("fit + predict, all folds", .right),
    ]
    if hasLatency { columns += [("one row, p50 / p99", .right), ("batch", .right)] }
    var table = MarkdownTable(columns)
    for model in context.ranked {
      let count = Double(max(1, model.folds.count))
      let fit = model.folds.map(\.fitSeconds).reduce(0, +)
      let predict = model.folds.map(\.predictSeconds).reduce(0, +)
      var row = [
        model.label, Format.duration(fit / count), Format.duration(predict / count), Format.duration(fit + predict),
      ]
      if hasLatency {
        row.append(
          model.latencyMicroseconds.map { "\(Format.microseconds($0.p50)) / \(Format.microseconds($0.p99))" } ?? "–")
        row.append("\(Format.rate(model.throughputRowsPerSecond)) rows/s")
      }
      table.append(row)
    }
    return table
  }
}
