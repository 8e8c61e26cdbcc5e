import BenchbookEvaluation

/// The classic comparison figure: the spread of per-fold log-loss, one box per model.
struct LogLossBoxPlot: ReportPlot {
  let id = "log-loss-box"
  let title = "Per-fold log-loss by model"
  let showsTimings = false

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models)
    let styles = ModelSeries.styleIndices(results)
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: title + " (lower is better)"))
    script.text += """
      set style data boxplot
      set style boxplot outliers pointtype 6
      set boxwidth 0.5
      set logscale y
      set autoscale yfix
      set offsets 0, 0, graph 0.05, graph 0.05
      set ylabel "log-loss per fold (nats, log scale)"
      set xlabel "model (best first)"
      set key off
      set xrange [0.4:\(Double(models.count) + 0.6)]

      """
    script.text += GnuplotScript.categoryTics(models.map(\.label))
    script.text +=
      "plot "
      + models.indices.map {
        "'-' using (\($0 + 1)):1 \(GnuplotScript.style(styles[models[$0].label]!)) title \(GnuplotScript.quoted(models[$0].label))"
      }
      .joined(separator: ", \\\n  ") + "\n"
    script.blocks = models.map { model in model.folds.map { [max($0.logLoss, 1e-12)] } }
    return script
  }
}
