import BenchbookData
import BenchbookEvaluation
import Foundation

/// Draws the report's figures as SVG files beside it.
public enum PlotRenderer {
  /// Every figure, in report order.
  public static let plots: [any ReportPlot] = [
    LogLossBoxPlot(), FoldLinesPlot(), TimingPlot(), TradeOffPlot(), FoldTimeRangesPlot(), ClassRateOverTimePlot(),
  ]

  /// Draws each plot the results hold data for into `directory`; a plot that cannot be drawn is skipped
  /// with its reason.
  public static func draw(
    _ results: ExperimentResults, into directory: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [PlotOutcome] {
    let gnuplot = Gnuplot.executable(environment: environment)
    let missing = gnuplot == nil ? "gnuplot is not installed (Debian: apt-get install gnuplot-nox)" : nil
    return plots.filter { $0.applies(to: results) }.map { plot in
      var outcome = PlotOutcome(id: plot.id, title: plot.title, fileName: plot.fileName, skippedBecause: missing)
      guard missing == nil else { return outcome }
      let final = URL(fileURLWithPath: directory).appendingPathComponent(plot.fileName).path
      let temporary = URL(fileURLWithPath: directory).appendingPathComponent(".\(plot.fileName).tmp-\(getpid())").path
      do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = plot.script(results, output: temporary)
        try Gnuplot.run(script: script.text, blocks: script.blocks, executable: gnuplot!)
        guard rename(temporary, final) == 0 else {
          throw Gnuplot.Failure(description: "cannot move the SVG into place: \(String(cString: strerror(errno)))")
        }
      } catch {
        try? FileManager.default.removeItem(atPath: temporary)
        outcome.skippedBecause = "\(error)"
      }
      return outcome
    }
  }

  /// The outcomes a report shows when no plots are drawn (re-rendering without gnuplot, or tests).
  public static func notDrawn(because reason: String) -> [PlotOutcome] {
    plots.map { PlotOutcome(id: $0.id, title: $0.title, fileName: $0.fileName, skippedBecause: reason) }
  }
}
