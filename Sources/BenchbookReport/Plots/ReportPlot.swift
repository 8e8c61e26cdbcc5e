import BenchbookEvaluation

/// One figure of the report, drawn from results alone.
public protocol ReportPlot: Sendable {
  /// File name stem, e.g. `log-loss-box` → `log-loss-box.svg`.
  var id: String { get }
  var title: String { get }
  /// Whether the figure shows timings, which change from run to run.
  var showsTimings: Bool { get }
  func script(_ results: ExperimentResults, output: String) -> GnuplotScript
  /// Whether the results hold what the figure shows (the audit's time plots need a time column).
  func applies(to results: ExperimentResults) -> Bool
}

extension ReportPlot {
  public var fileName: String { "\(id).svg" }
  public func applies(to results: ExperimentResults) -> Bool { true }
}

/// What became of one figure: drawn, or skipped and why.
public struct PlotOutcome: Sendable, Hashable {
  public var id: String
  public var title: String
  public var fileName: String
  /// `nil` when drawn.
  public var skippedBecause: String?
  /// What gnuplot warned about while drawing it (shown on the terminal, never in the report).
  public var warnings: [String] = []

  /// Draws one plot, a report's or a study's, from its gnuplot `script` (given the output path); skipped, with
  /// the reason, when gnuplot is not installed or fails.
  static func draw(
    id: String, title: String, fileName: String, into directory: String, gnuplot: String?,
    script: (String) -> GnuplotScript
  ) -> PlotOutcome {
    var outcome = PlotOutcome(id: id, title: title, fileName: fileName, skippedBecause: nil)
    guard let gnuplot else {
      outcome.skippedBecause = Gnuplot.notInstalled
      return outcome
    }
    do {
      outcome.warnings = try Gnuplot.drawSVG(named: fileName, into: directory, executable: gnuplot, script: script)
    } catch {
      outcome.skippedBecause = "\(error)"
    }
    return outcome
  }
}
