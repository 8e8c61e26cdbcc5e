import BenchbookEvaluation

/// Fit and predict times, kept apart from the scores: they are the only figures
/// that change when the same spec is run again.
struct TimingSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    var table = MarkdownTable([
      ("model", .left), ("fit per fold", .right), ("predict per fold", .right), ("fit + predict, all folds", .right),
    ])
    for model in context.ranked {
      let count = Double(max(1, model.folds.count))
      let fit = model.folds.map(\.fitSeconds).reduce(0, +)
      let predict = model.folds.map(\.predictSeconds).reduce(0, +)
      table.append([
        model.label, Format.duration(fit / count), Format.duration(predict / count), Format.duration(fit + predict),
      ])
    }
    let jobs = context.results.environment.jobs
    var text = "### Timing\n\n"
    text += "Wall-clock seconds on the machine under *Reproduce*, with \(jobs) parallel job\(jobs == 1 ? "" : "s"). "
    text += "Fit includes fitting the preprocessing on the training fold; predict includes applying it. "
    text += "These are the only figures that differ when the experiment is run again.\n\n"
    return text + table.markdown
  }
}
