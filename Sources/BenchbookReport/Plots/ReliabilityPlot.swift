import BenchbookEvaluation

/// The reliability diagram: in each bin of predicted probability, the rate at which the outcome occurred, with the
/// share of each model's predictions per bin beneath. On the diagonal a model means what it says; log-loss punishes
/// the points far below it at high probability most, and the panel below says how many predictions a point stands
/// for (a model that rarely predicts 0.5 has little to show there).
struct ReliabilityPlot: ReportPlot {
  let id = "reliability"
  let title = "Reliability diagram"
  let showsTimings = false

  func applies(to results: ExperimentResults) -> Bool { results.models.contains { $0.calibration != nil } }

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models).filter { $0.calibration != nil }
    let styles = ModelSeries.styleIndices(results)
    let positive = models.first?.calibration?.positiveClass
    let what = positive.map { "Predicted P(class \($0))" } ?? "Each class's predicted probability (one-vs-rest)"
    // Both panels' data as named blocks: gnuplot reads a `'-'` source's rows right after its plot command, so a
    // second plot in the same script cannot take inline data.
    var text = GnuplotScript.preamble(
      output: output, title: "\(what) against the observed rate", width: 760, height: 640)
    for (index, model) in models.enumerated() {
      let bins = model.calibration?.bins ?? []
      text += "$points\(index) << EOD\n"
      for bin in bins {
        guard let predicted = bin.meanPredicted, let observed = bin.observedRate else { continue }
        text += "\(predicted) \(observed)\n"
      }
      text += "EOD\n$shares\(index) << EOD\n"
      let total = bins.reduce(0) { $0 + $1.count }
      for bin in bins where total > 0 {
        text += "\((bin.lower + bin.upper) / 2) \(Double(bin.count) / Double(total))\n"
      }
      text += "EOD\n"
    }
    text += """
      set multiplot
      set lmargin at screen 0.11
      set rmargin at screen 0.64
      set origin 0, 0.3
      set size 1, 0.7
      set bmargin 3
      set xrange [0:1]
      set yrange [0:1]
      set xtics 0.1
      set ytics 0.1
      set xlabel "mean predicted probability in the bin"
      set ylabel "observed rate in the bin"
      set key outside right top

      """
    var plots = ["x with lines dt 2 lc rgb '#888888' title 'perfectly calibrated'"]
    plots += models.indices.map {
      "$points\($0) using 1:2 with linespoints lw 1.5 ps 1.1 \(GnuplotScript.style(styles[models[$0].label]!)) "
        + "title \(GnuplotScript.quoted(models[$0].label))"
    }
    text += "plot " + plots.joined(separator: ", \\\n  ") + "\n"
    text += """
      unset title
      set origin 0, 0
      set size 1, 0.3
      set tmargin 0.5
      set bmargin 3
      set yrange [0:*]
      set ytics auto
      set format y "%.0f%%"
      set xlabel "predicted probability"
      set ylabel "predictions"
      unset key

      """
    let shares = models.indices.map {
      "$shares\($0) using 1:($2 * 100) with histeps lw 1.5 \(GnuplotScript.lineStyle(styles[models[$0].label]!)) notitle"
    }
    text += "plot " + shares.joined(separator: ", \\\n  ") + "\nunset multiplot\n"
    return GnuplotScript(text: text)
  }
}
