import BenchbookEvaluation
import Foundation

/// Trends over past checks, with the warn and fail bands.
enum RegressionPlots {
  static func draw(
    _ history: [RegressionHistory.Entry], into directory: String, environment: [String: String]
  ) -> [PlotOutcome] {
    let recent = Array(history.suffix(50))
    let labels = recent.last?.models.map(\.label) ?? []
    let figures: [(id: String, title: String, script: (String) -> GnuplotScript)] = [
      (
        "history-log-loss", "Log-loss change against the baseline, by check",
        { output in
          script(
            output: output, title: "Log-loss change against the baseline (relative)",
            ylabel: "change in mean log-loss (%)",
            labels: labels, bands: [(0.25, "warn (relative part)"), (1, "fail (relative part)")], logY: false
          ) { entry, label in
            guard let model = entry.models.first(where: { $0.label == label }), let now = model.logLoss,
              let then = model.baselineLogLoss, then != 0
            else { return nil }
            return (now - then) / then * 100
          }(recent)
        }
      ),
      (
        "history-time", "Fit time ratio against the baseline, by check",
        { output in
          script(
            output: output, title: "Fit time ÷ reference, against the baseline", ylabel: "factor (log scale)",
            labels: labels, bands: [(1.2, "warn"), (1.5, "fail with p < 0.01"), (2, "fail")], logY: true
          ) { entry, label in entry.models.first { $0.label == label }?.fitTimeFactor }(recent)
        }
      ),
    ]
    let gnuplot = Gnuplot.executable(environment: environment)
    return figures.map { figure in
      var outcome = PlotOutcome(id: figure.id, title: figure.title, fileName: "\(figure.id).svg", skippedBecause: nil)
      guard let gnuplot else {
        outcome.skippedBecause = Gnuplot.notInstalled
        return outcome
      }
      do {
        try Gnuplot.drawSVG(named: outcome.fileName, into: directory, executable: gnuplot, script: figure.script)
      } catch {
        outcome.skippedBecause = "\(error)"
      }
      return outcome
    }
  }

  /// One line per model over the checks, and a dashed line per band.
  static func script(
    output: String, title: String, ylabel: String, labels: [String], bands: [(Double, String)], logY: Bool,
    value: @escaping (RegressionHistory.Entry, String) -> Double?
  ) -> ([RegressionHistory.Entry]) -> GnuplotScript {
    { entries in
      var script = GnuplotScript(text: GnuplotScript.preamble(output: output, title: title))
      script.text += "set xlabel \"check (oldest to newest)\"\nset ylabel \(GnuplotScript.quoted(ylabel))\n"
      script.text += "set xrange [0.5:\(Double(entries.count) + 0.5)]\n"
      if logY { script.text += "set logscale y\nset format y \"%g\"\n" }
      var parts: [String] = []
      for (index, label) in labels.enumerated() {
        parts.append(
          "'-' using 1:2 with linespoints \(GnuplotScript.style(index)) title \(GnuplotScript.quoted(label))")
        let points = entries.enumerated().compactMap { position, entry in
          value(entry, label).map { [Double(position + 1), logY ? max($0, 1e-6) : $0] }
        }
        script.blocks.append(points.isEmpty ? [[Double(1), logY ? 1 : 0]] : points)
      }
      for (index, band) in bands.enumerated() {
        parts.append(
          "\(band.0) with lines lc rgb \"#888888\" dt \(index + 2) lw 1.5 title \(GnuplotScript.quoted(band.1))")
      }
      script.text += "plot " + parts.joined(separator: ", \\\n  ") + "\n"
      return script
    }
  }
}
