import BenchbookEvaluation
import BenchbookModels

/// The ranked results table: every measure, mean ± standard deviation over folds.
struct ResultsSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let table = Self.table(context)
    let hasSize = table.header.contains("Core ML size")
    let folds = context.results.resampling.splits.count
    var text = "## Results\n\n"
    text +=
      "Ranked by mean log-loss over \(folds) test folds (lower is better); ± is the standard deviation across folds. "
    text += "Parameters counts the numbers each model stores when fitted on all rows"
    if hasSize {
      text += "; Core ML size is the exact `.mlmodel` file `benchbook export` writes for it, "
      text += "and *needs* the iOS release its format requires"
    }
    return text + ".\n\n" + table.markdown
  }

  /// The ranked table itself; the terminal prints the same one.
  static func table(_ context: ReportContext) -> MarkdownTable {
    // Core ML columns only when the results have them: no empty columns.
    let hasSize = context.ranked.contains { $0.modelSizeBytes != nil }
    var columns: [(String, MarkdownTable.Alignment)] = [
      ("rank", .right), ("model", .left), ("algorithm", .left), ("log-loss", .right), ("accuracy", .right),
      ("ROC AUC", .right), ("Brier", .right), ("parameters", .right),
    ]
    if hasSize { columns += [("Core ML size", .right), ("needs", .left)] }
    var table = MarkdownTable(columns)
    for (index, model) in context.ranked.enumerated() {
      var row = [
        "\(index + 1)", "**\(model.label)**", AlgorithmName.of(model),
        Format.meanStd(model.logLoss.mean, model.logLoss.std),
        Format.meanStd(model.accuracy.mean, model.accuracy.std), Format.meanStd(model.rocAUC.mean, model.rocAUC.std),
        Format.meanStd(model.brier.mean, model.brier.std), Format.count(model.parameterCount),
      ]
      if hasSize { row += [model.modelSizeBytes.map(Format.bytes) ?? "not exportable", model.coremlIOS ?? "–"] }
      table.append(row)
    }
    return table
  }
}

/// "k-nearest neighbours (n_neighbors=15)": the algorithm, and only the settings that differ from its defaults.
enum AlgorithmName {
  static func of(_ model: ModelResult) -> String {
    // The schema holds every default, so nothing is fitted or built to know them.
    let schema = model.descriptor?.settingsSchema ?? []
    let defaults = Dictionary(uniqueKeysWithValues: schema.map { ($0.name, $0.defaultValue) })
    let changed = model.params.keys.sorted().filter { defaults[$0] != model.params[$0] }
    let settings = changed.map { "\($0)=\(model.params[$0]!)" }.joined(separator: ", ")
    return settings.isEmpty ? model.algorithmName : "\(model.algorithmName) (\(settings))"
  }
}
