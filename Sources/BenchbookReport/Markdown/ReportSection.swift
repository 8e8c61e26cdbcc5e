import BenchbookEvaluation
import BenchbookModels

/// What every section reads: the results, their ranking, and what happened to the plots.
public struct ReportContext: Sendable {
  public let results: ExperimentResults
  /// Models by mean log-loss, best first.
  public let ranked: [ModelResult]
  public let plots: [PlotOutcome]

  public init(results: ExperimentResults, plots: [PlotOutcome]) {
    self.results = results
    ranked = RankedTable.rank(results.models)
    self.plots = plots
  }

  public var winner: ModelResult? { ranked.first }

  /// "logistic regression (LR)", or just the label when it already says the algorithm.
  func name(_ model: ModelResult) -> String {
    let algorithm = model.algorithmName
    return "\(algorithm) (\(model.label))"
  }
}

/// One part of the report: a small unit that reads results and writes Markdown.
/// A section with nothing to say returns `nil` and is left out.
protocol ReportSection: Sendable {
  func render(_ context: ReportContext) -> String?
}
