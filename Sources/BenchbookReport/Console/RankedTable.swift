import BenchbookEvaluation
import Foundation

/// The plain-text table `benchbook run` prints at the end: models ranked by
/// mean log-loss, best first.
public enum RankedTable {
  public static func render(_ results: ExperimentResults) -> String {
    let ranked = rank(results.models)
    var rows: [[String]] = [
      ["rank", "model", "log-loss", "accuracy", "ROC AUC", "brier", "fit s/fold", "predict s/fold"]
    ]
    for (position, model) in ranked.enumerated() {
      let fit = model.folds.map(\.fitSeconds).reduce(0, +) / Double(max(1, model.folds.count))
      let predict = model.folds.map(\.predictSeconds).reduce(0, +) / Double(max(1, model.folds.count))
      rows.append([
        "\(position + 1)", model.label, meanStd(model.logLoss, digits: 6), fixed(model.accuracy.mean, 4),
        fixed(model.rocAUC.mean, 4), fixed(model.brier.mean, 4), fixed(fit, 3), fixed(predict, 3),
      ])
    }
    return layout(rows, rightAligned: [0, 3, 4, 5, 6, 7])
  }

  /// Models by mean log-loss, ties and undefined means kept in spec order.
  public static func rank(_ models: [ModelResult]) -> [ModelResult] {
    models.enumerated().sorted { a, b in
      let (x, y) = (a.element.logLoss.mean ?? .infinity, b.element.logLoss.mean ?? .infinity)
      return x != y ? x < y : a.offset < b.offset
    }.map(\.element)
  }

  static func meanStd(_ summary: Summary, digits: Int) -> String {
    guard let mean = summary.mean, let std = summary.std else { return "–" }
    return "\(fixed(mean, digits)) ± \(fixed(std, digits))"
  }

  static func fixed(_ value: Double?, _ digits: Int) -> String {
    guard let value else { return "–" }
    return String(format: "%.\(digits)f", value)
  }

  static func layout(_ rows: [[String]], rightAligned: Set<Int>) -> String {
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return rightAligned.contains(column) ? padding + cell : cell + padding
      }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }.joined(separator: "\n") + "\n"
  }
}
