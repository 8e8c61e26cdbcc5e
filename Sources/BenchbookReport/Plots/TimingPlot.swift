import BenchbookEvaluation

/// Fit and predict time per fold for each model, on a log scale; bars span the
/// fastest and slowest fold.
struct TimingPlot: ReportPlot {
  let id = "timing"
  let title = "Fit and predict time per fold"
  let showsTimings = true

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models)
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: title))
    func block(_ seconds: (FoldResult) -> Double, offset: Double) -> [[Double]] {
      models.enumerated().map { index, model in
        let values = model.folds.map { max(seconds($0), 1e-7) }
        let mean = values.reduce(0, +) / Double(max(1, values.count))
        return [Double(index + 1) + offset, mean, values.min() ?? mean, values.max() ?? mean]
      }
    }
    script.blocks = [block(\.fitSeconds, offset: -0.1), block(\.predictSeconds, offset: 0.1)]
    // Tics named in the unit that reads best: gnuplot's own log tics skip whole decades.
    let y = LogAxis(script.blocks.flatMap { $0.flatMap { $0.dropFirst() } }, padding: 0.05)
    script.text += """
      set logscale y
      set ylabel "time per fold (log scale)"
      set xlabel "model (best log-loss first)"
      set xrange [0.4:\(Double(models.count) + 0.6)]

      """
    script.text += GnuplotScript.keyUnderAxisLabel
    script.text += y.gnuplot("y", label: Format.duration)
    script.text += GnuplotScript.categoryTics(models.map(\.label))
    script.text += """
      plot '-' using 1:2:3:4 with yerrorbars lc rgb "#1b5e9f" pt 7 ps 1.2 title "fit (mean, min–max)", \\
        '-' using 1:2:3:4 with yerrorbars lc rgb "#c0392b" pt 4 ps 1.2 title "predict (mean, min–max)"

      """
    return script
  }
}
