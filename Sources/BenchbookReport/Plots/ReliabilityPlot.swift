import BenchbookEvaluation

/// The reliability diagram: in each bin of predicted probability, the rate at
/// which the outcome occurred. On the diagonal a model means what it says; log-loss
/// punishes the points far below it at high probability most.
struct ReliabilityPlot: ReportPlot {
  let id = "reliability"
  let title = "Reliability diagram"
  let showsTimings = false

  func applies(to results: ExperimentResults) -> Bool { results.models.contains { $0.calibration != nil } }

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models).filter { $0.calibration != nil }
    let positive = models.first?.calibration?.positiveClass
    let what = positive.map { "Predicted P(class \($0))" } ?? "Each class's predicted probability (one-vs-rest)"
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: "\(what) against the observed rate"))
    script.text += """
      set xrange [0:1]
      set yrange [0:1]
      set size ratio -1
      set xtics 0.1
      set ytics 0.1
      set xlabel "mean predicted probability in the bin"
      set ylabel "observed rate in the bin"
      set key outside right top

      """
    var plots = ["x with lines dt 2 lc rgb '#888888' title 'perfectly calibrated'"]
    plots += models.indices.map {
      "'-' using 1:2 with linespoints lw 1.5 ps 1.1 \(GnuplotScript.style($0)) title \(GnuplotScript.quoted(models[$0].label))"
    }
    script.text += "plot " + plots.joined(separator: ", \\\n  ") + "\n"
    script.blocks = models.map { model in
      (model.calibration?.bins ?? []).compactMap { bin in
        guard let predicted = bin.meanPredicted, let observed = bin.observedRate else { return nil }
        return [predicted, observed]
      }
    }
    return script
  }
}
