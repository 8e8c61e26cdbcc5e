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
    let styles = ModelSeries.styleIndices(results)
    let bySize = models.contains { $0.modelSizeBytes != nil }
    let heading = bySize ? "Log-loss against Core ML file size" : "Log-loss against fit time"
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: heading + " (lower left is better)"))
    let points = models.map { model -> (Double, Double) in
      let fit = model.folds.map(\.fitSeconds).reduce(0, +) / Double(max(1, model.folds.count))
      return (bySize ? Double(model.modelSizeBytes ?? 1) : max(fit, 1e-7), max(model.logLoss.mean ?? 1e-12, 1e-12))
    }
    // Wide margins leave room for the names beside the outermost points.
    let x = LogAxis(points.map(\.0), padding: 0.12)
    let y = LogAxis(points.map(\.1), padding: 0.12)
    let xLabel = bySize ? "Core ML file size (log scale)" : "mean fit time per fold (log scale)"
    script.text += """
      set logscale xy
      set xlabel \(GnuplotScript.quoted(xLabel))
      set ylabel "mean log-loss (nats, log scale)"

      """
    script.text += x.gnuplot("x") { bySize ? Format.bytes(Int($0.rounded())) : Format.duration($0) }
    script.text += y.gnuplot("y", label: Format.number)
    let sizes = models.indices.map { max(1.0, 2.2 - 0.2 * Double($0)) }
    // The plot area of a 760 × 440 figure with the key outside right, in characters and lines.
    let labels = PointLabels(columns: 66, lines: 18)
    script.text += labels.commands(
      models.indices.map {
        PointLabels.Point(
          x: x.fraction(points[$0].0), y: y.fraction(points[$0].1), text: models[$0].label, radius: sizes[$0] * 0.6)
      }, at: points)
    script.text +=
      "plot "
      + models.indices.map {
        "'-' using 1:2 with points ps \(sizes[$0]) \(GnuplotScript.style(styles[models[$0].label]!)) title \(GnuplotScript.quoted(models[$0].label))"
      }.joined(separator: ", \\\n  ") + "\n"
    script.blocks = points.map { [[$0.0, $0.1]] }
    return script
  }
}
