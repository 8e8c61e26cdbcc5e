import BenchbookEvaluation

/// The trade-off a phone app makes: log-loss against what the model costs to
/// fit. Down and to the left is better.
struct TradeOffPlot: ReportPlot {
  let id = "trade-off"
  let title = "Log-loss against fit time"
  let showsTimings = true

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models)
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: title + " (lower left is better)"))
    script.text += """
      set logscale xy
      set format x "%g"
      set xlabel "mean fit time per fold (seconds, log scale)"
      set ylabel "mean log-loss (nats, log scale)"
      set autoscale fix
      set offsets graph 0.12, graph 0.12, graph 0.12, graph 0.12

      """
    script.text +=
      "plot "
      + models.indices.map {
        "'-' using 1:2 with points ps 1.6 \(GnuplotScript.style($0)) title \(GnuplotScript.quoted(models[$0].label))"
      }.joined(separator: ", \\\n  ") + "\n"
    script.blocks = models.map { model in
      let fit = model.folds.map(\.fitSeconds).reduce(0, +) / Double(max(1, model.folds.count))
      return [[max(fit, 1e-7), max(model.logLoss.mean ?? 1e-12, 1e-12)]]
    }
    return script
  }
}
