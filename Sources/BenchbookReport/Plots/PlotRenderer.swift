import BenchbookData
import BenchbookEvaluation
import Foundation
import Synchronization

/// Draws the report's figures as SVG files beside it.
public enum PlotRenderer {
  /// Every figure, in report order.
  public static let plots: [any ReportPlot] = [
    LogLossBoxPlot(), FoldLinesPlot(), TimingPlot(), TradeOffPlot(), ParetoPlot(cost: .size),
    ParetoPlot(cost: .latency), ReliabilityPlot(), FoldTimeRangesPlot(), ClassRateOverTimePlot(),
  ]

  /// Draws each plot the results hold data for into `directory`; a plot that cannot be drawn is skipped
  /// with its reason.
  ///
  /// Every plot is its own gnuplot process, and a small report's process spends most of its life starting up
  /// (loading gnuplot and its libraries), so the plots are drawn all at once, a thread each waiting on its
  /// process, rather than one after another, each waiting for the last to start up. Each writes its own
  /// file, so what is drawn does not depend on the order they finish in.
  public static func draw(
    _ results: ExperimentResults, into directory: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [PlotOutcome] {
    let gnuplot = Gnuplot.executable(environment: environment)
    let applicable = plots.filter { $0.applies(to: results) }
    let outcomes = Outcomes(count: applicable.count)
    let group = DispatchGroup()
    for (index, plot) in applicable.enumerated() {
      group.enter()
      Thread.detachNewThread {
        outcomes.set(index, draw(plot, results, into: directory, gnuplot: gnuplot))
        group.leave()
      }
    }
    group.wait()
    return outcomes.all
  }

  /// One plot drawn, or skipped with its reason.
  private static func draw(
    _ plot: any ReportPlot, _ results: ExperimentResults, into directory: String, gnuplot: String?
  ) -> PlotOutcome {
    PlotOutcome.draw(
      id: plot.id, title: plot.title, fileName: plot.fileName, into: directory, gnuplot: gnuplot
    ) { plot.script(results, output: $0) }
  }

  /// The plots' outcomes in report order, filled in by their threads as they finish.
  private final class Outcomes: Sendable {
    private let slots: Mutex<[PlotOutcome?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ outcome: PlotOutcome) { slots.withLock { $0[index] = outcome } }

    var all: [PlotOutcome] { slots.withLock { $0.map { $0! } } }
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
