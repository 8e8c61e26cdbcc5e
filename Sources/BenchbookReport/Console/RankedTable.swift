import BenchbookEvaluation
import Foundation

/// What `benchbook run` prints at the end: the report's ranked results table,
/// then its timing table, as plain text.
public enum RankedTable {
  public static func render(_ results: ExperimentResults) -> String {
    let context = ReportContext(results: results, plots: [])
    return ResultsSection.table(context).plainText + "\n" + TimingSection.table(context).plainText
  }

  /// Models by mean log-loss, ties and undefined means kept in spec order.
  public static func rank(_ models: [ModelResult]) -> [ModelResult] {
    models.enumerated().sorted { a, b in
      let (x, y) = (a.element.logLoss.mean ?? .infinity, b.element.logLoss.mean ?? .infinity)
      return x != y ? x < y : a.offset < b.offset
    }.map(\.element)
  }
}
