import BenchbookData
import BenchbookEvaluation
import Foundation

/// Draws the report's figures as SVG files beside it.
public enum PlotRenderer {
  /// Every figure, in report order.
  public static let plots: [any ReportPlot] = [
    LogLossBoxPlot(), FoldLinesPlot(), TimingPlot(), TradeOffPlot(), ParetoPlot(cost: .size),
    ParetoPlot(cost: .latency), ReliabilityPlot(), FoldTimeRangesPlot(), ClassRateOverTimePlot(),
  ]

  /// Draws each plot the results hold data for into `directory`; a plot that cannot be drawn is skipped
  /// with its reason.
  public static func draw(
    _ results: ExperimentResults, into directory: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [PlotOutcome] {
    let gnuplot = Gnuplot.executable(environment: environment)
    return plots.filter { $0.applies(to: results) }.map { plot in
      var outcome = PlotOutcome(id: plot.id, title: plot.title, fileName: plot.fileName, skippedBecause: nil)
      guard let gnuplot else {
        outcome.skippedBecause = Gnuplot.notInstalled
        return outcome
      }
      do {
        outcome.warnings = try Gnuplot.drawSVG(named: plot.fileName, into: directory, executable: gnuplot) {
          plot.script(results, output: $0)
        }
      } catch {
        outcome.skippedBecause = "\(error)"
      }
      return outcome
    }
  }

  /// The file names of every figure a report can have: the ones a re-render may have to remove.
  public static var fileNames: [String] { plots.map(\.fileName) }

  /// The outcomes a report shows when no plots are drawn (re-rendering without gnuplot, or tests); given `results`,
  /// only the plots that apply to them, as `draw` would list.
  public static func notDrawn(because reason: String, for results: ExperimentResults? = nil) -> [PlotOutcome] {
    plots.filter { plot in results.map { plot.applies(to: $0) } ?? true }.map {
      PlotOutcome(id: $0.id, title: $0.title, fileName: $0.fileName, skippedBecause: reason)
    }
  }
}
