import BenchbookEvaluation

/// Per-fold log-loss as one line per model over the folds: where models agree,
/// and which folds are hard for all of them.
struct FoldLinesPlot: ReportPlot {
  let id = "log-loss-folds"
  let title = "Log-loss fold by fold"
  let showsTimings = false

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models)
    let styles = ModelSeries.styleIndices(results)
    let foldCount = models.first?.folds.count ?? 0
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: title))
    script.text += """
      set logscale y
      set autoscale yfix
      set offsets 0, 0, graph 0.05, graph 0.05
      set ylabel "log-loss (nats, log scale)"
      set xlabel "test fold"
      set xrange [0.5:\(Double(foldCount) + 0.5)]
      set xtics 1

      """
    script.text +=
      "plot "
      + models.indices.map {
        "'-' using 1:2 with linespoints lw 1.5 ps 0.9 \(GnuplotScript.style(styles[models[$0].label]!)) title \(GnuplotScript.quoted(models[$0].label))"
      }.joined(separator: ", \\\n  ") + "\n"
    script.blocks = models.map { model in
      model.folds.enumerated().map { [Double($0.offset + 1), max($0.element.logLoss, 1e-12)] }
    }
    return script
  }
}
