import BenchbookEvaluation

/// The trade-off a phone app makes: log-loss against the size of the Core ML
/// file, or against fit time when no sizes were measured. Lower left is better.
struct TradeOffPlot: ReportPlot {
  let id = "trade-off"
  var title: String { "Log-loss against model size" }
  /// Drawn against fit time only when results carry no sizes; sizes do not change between runs.
  let showsTimings = false

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models)
    let bySize = models.contains { $0.modelSizeBytes != nil }
    let heading = bySize ? "Log-loss against Core ML file size" : "Log-loss against fit time"
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: heading + " (lower left is better)"))
    script.text += """
      set logscale xy
      set format x \(GnuplotScript.quoted(bySize ? "%.0s %cB" : "%g"))
      set xlabel \(GnuplotScript.quoted(bySize ? "Core ML file size (log scale)" : "mean fit time per fold (seconds, log scale)"))
      set ylabel "mean log-loss (nats, log scale)"
      set autoscale fix
      set offsets graph 0.12, graph 0.12, graph 0.12, graph 0.12

      """
    // Name each point beside it at one of four heights, so neighbouring models stay readable.
    let heights = [0.9, -0.9, 2.1, -2.1]
    let points = models.map { model -> (Double, Double) in
      let fit = model.folds.map(\.fitSeconds).reduce(0, +) / Double(max(1, model.folds.count))
      return (bySize ? Double(model.modelSizeBytes ?? 1) : max(fit, 1e-7), max(model.logLoss.mean ?? 1e-12, 1e-12))
    }
    for (index, model) in models.enumerated() {
      let (x, y) = points[index]
      script.text +=
        "set label \(index + 1) \(GnuplotScript.quoted(model.label)) at \(x),\(y) offset char 1.2,\(heights[index % heights.count])\n"
    }
    script.text +=
      "plot "
      + models.indices.map {
        "'-' using 1:2 with points ps \(max(1.0, 2.2 - 0.2 * Double($0))) \(GnuplotScript.style($0)) title \(GnuplotScript.quoted(models[$0].label))"
      }.joined(separator: ", \\\n  ") + "\n"
    script.blocks = points.map { [[$0.0, $0.1]] }
    return script
  }
}
