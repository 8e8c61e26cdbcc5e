import BenchbookData
import BenchbookEvaluation
import Foundation

/// `reports/README.md`: one line per experiment with its question, winner and a link.
public enum ReportIndex {
  public static let fileName = "README.md"

  /// Every `*/results.json` one level below `directory`, by experiment name.
  public static func collect(in directory: String) -> [(folder: String, results: ExperimentResults)] {
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return folders.sorted().compactMap { folder in
      let path = URL(fileURLWithPath: directory).appendingPathComponent(folder).appendingPathComponent(
        ResultsFile.fileName
      ).path
      guard FileManager.default.fileExists(atPath: path), let results = try? ResultsFile.read(path) else { return nil }
      return (folder, results)
    }
  }

  public static func markdown(_ entries: [(folder: String, results: ExperimentResults)]) -> String {
    var text = "# Benchbook reports\n\n"
    text += "Every experiment under `experiments/`, as last run. Regenerate with `make experiments`.\n\n"
    var table = MarkdownTable([
      ("experiment", .left), ("question", .left), ("best model", .left), ("log-loss", .right), ("rows", .right),
      ("resampling", .left),
    ])
    for (folder, results) in entries {
      let context = ReportContext(results: results, plots: [])
      let winner = context.winner
      table.append([
        "[\(results.experiment)](\(folder)/\(ReportRenderer.fileName))", results.description ?? "",
        winner.map { "\($0.label), \(AlgorithmName.of($0))" } ?? "–",
        Format.meanStd(winner?.logLoss.mean, winner?.logLoss.std), Format.count(results.data.rows),
        "\(results.resampling.method), \(results.resampling.splits.count) folds",
      ])
    }
    return text + table.markdown
  }

  @discardableResult
  public static func write(reportsDirectory: String) throws -> String {
    let path = URL(fileURLWithPath: reportsDirectory).appendingPathComponent(fileName).path
    try AtomicFile.write(markdown(collect(in: reportsDirectory)), to: path)
    return path
  }
}
