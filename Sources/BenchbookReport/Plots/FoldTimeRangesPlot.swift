import BenchbookEvaluation

/// Each fold's training and test rows along the time column: thin bars for
/// training, thick ones for test. A training bar to the right of its fold's
/// test bar means the models learned from the future (leak audit).
struct FoldTimeRangesPlot: ReportPlot {
  let id = "audit-fold-times"
  let title = "When each fold's training and test rows happened"
  let showsTimings = false

  func applies(to results: ExperimentResults) -> Bool { !(results.audit?.timeProfile?.folds.isEmpty ?? true) }

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    guard let profile = results.audit?.timeProfile else { return GnuplotScript() }
    let folds = profile.folds
    let first = profile.bins.first?.start ?? 0
    let last = profile.bins.last?.end ?? first
    let axis = TimeAxis(first: first, last: last)
    let height = max(290, 120 + 26 * folds.count)
    var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: title, height: height))
    script.text += axis.gnuplot
    script.text += """
      set yrange [\(Double(folds.count) + 0.6):0.4]
      set ylabel "fold"
      set xlabel \(GnuplotScript.quoted("\(profile.column) (UTC)"))
      set grid xtics ytics lc rgb "#dddddd" lw 1 dt 1

      """
    script.text += GnuplotScript.keyUnderAxisLabel
    script.text +=
      "set ytics ("
      + folds.enumerated().map { "\"\(repeatedName($1, results))\" \($0 + 1)" }
      .joined(separator: ", ") + ")\n"
    script.text += """
      plot '-' using 1:2:3:4 with boxxyerror fs solid 0.55 noborder lc rgb "#1b5e9f" title "training rows", \\
        '-' using 1:2:3:4 with boxxyerror fs solid 0.9 noborder lc rgb "#c0392b" title "test rows"

      """
    let minimum = (axis.span / 86400) * 0.002
    func boxes(_ spans: (TimeProfile.FoldSpans) -> [[Double]], halfHeight: Double) -> [[Double]] {
      var rows: [[Double]] = []
      for (index, fold) in folds.enumerated() {
        for span in spans(fold) where span.count == 2 {
          let (start, end) = (axis.days(span[0]), axis.days(span[1]))
          rows.append([(start + end) / 2, Double(index + 1), max((end - start) / 2, minimum), halfHeight])
        }
      }
      return rows.isEmpty ? [[0, 1, 0, 0]] : rows
    }
    script.blocks = [boxes(\.train, halfHeight: 0.12), boxes(\.test, halfHeight: 0.3)]
    return script
  }

  /// "3", or "2.3" (repeat 2, fold 3) for repeated k-fold.
  private func repeatedName(_ fold: TimeProfile.FoldSpans, _ results: ExperimentResults) -> String {
    guard (results.resampling.repeats ?? 1) > 1 else { return "\(fold.fold + 1)" }
    return "\(fold.repeat + 1).\(fold.fold % max(1, results.resampling.folds) + 1)"
  }
}
