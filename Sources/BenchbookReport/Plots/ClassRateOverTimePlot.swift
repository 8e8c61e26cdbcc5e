import BenchbookEvaluation

/// The share of rows in the positive class (for two classes) or in each class,
/// over equal stretches of time. Drift here is what makes folds that mix
/// periods flatter a model (leak audit).
struct ClassRateOverTimePlot: ReportPlot {
  let id = "audit-class-rate"
  let title = "Class make-up over time"
  let showsTimings = false

  func applies(to results: ExperimentResults) -> Bool { results.audit?.timeProfile != nil }

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    guard let profile = results.audit?.timeProfile else { return GnuplotScript() }
    let axis = TimeAxis(first: profile.bins.first?.start ?? 0, last: profile.bins.last?.end ?? 0)
    // Two classes: the second one's rate (the positive class); more: every class.
    let shown = profile.classes.count == 2 ? [1] : Array(profile.classes.indices)
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: title))
    script.text += axis.gnuplot
    script.text += """
      set yrange [0:*]
      set ylabel \(GnuplotScript.quoted(shown.count == 1 ? "share of rows in class \(profile.classes[1])" : "share of rows"))
      set format y "%.0f%%"
      set xlabel \(GnuplotScript.quoted("\(profile.column) (UTC), \(profile.bins.count) equal stretches"))
      set key below

      """
    script.text +=
      "plot "
      + shown.enumerated().map { position, c in
        "'-' using 1:2 with linespoints lw 1.5 ps 0.7 \(GnuplotScript.style(position)) title \(GnuplotScript.quoted("class \(profile.classes[c])"))"
      }.joined(separator: ", \\\n  ") + "\n"
    script.blocks = shown.map { c in
      let rows = profile.bins.filter { $0.rows > 0 }.map { bin in
        [axis.days((bin.start + bin.end) / 2), 100 * Double(bin.classCounts[c]) / Double(bin.rows)]
      }
      return rows.isEmpty ? [[0, 0]] : rows
    }
    return script
  }
}
