import BenchbookEvaluation

/// One figure of the report, drawn from results alone.
public protocol ReportPlot: Sendable {
  /// File name stem, e.g. `log-loss-box` → `log-loss-box.svg`.
  var id: String { get }
  var title: String { get }
  /// Whether the figure shows timings, which change from run to run.
  var showsTimings: Bool { get }
  func script(_ results: ExperimentResults, output: String) -> GnuplotScript
}

extension ReportPlot {
  public var fileName: String { "\(id).svg" }
}

/// What became of one figure: drawn, or skipped and why.
public struct PlotOutcome: Sendable, Hashable {
  public var id: String
  public var title: String
  public var fileName: String
  /// `nil` when drawn.
  public var skippedBecause: String?
}
