import BenchbookEvaluation
import BenchbookModels

/// The ranked results table: every measure, mean ± standard deviation over folds.
struct ResultsSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    var table = MarkdownTable([
      ("rank", .right), ("model", .left), ("algorithm", .left), ("log-loss", .right), ("accuracy", .right),
      ("ROC AUC", .right), ("Brier", .right), ("parameters", .right),
    ])
    for (index, model) in context.ranked.enumerated() {
      table.append([
        "\(index + 1)", "**\(model.label)**", AlgorithmName.of(model),
        Format.meanStd(model.logLoss.mean, model.logLoss.std),
        Format.meanStd(model.accuracy.mean, model.accuracy.std), Format.meanStd(model.rocAUC.mean, model.rocAUC.std),
        Format.meanStd(model.brier.mean, model.brier.std), Format.count(model.parameterCount),
      ])
    }
    let folds = context.results.resampling.splits.count
    var text = "## Results\n\n"
    text +=
      "Ranked by mean log-loss over \(folds) test folds (lower is better); ± is the standard deviation across folds. "
    text += "Parameters counts the numbers each model stores when fitted on all rows.\n\n"
    return text + table.markdown
  }
}

/// "k-nearest neighbours (n_neighbors=15)": the algorithm, and only the settings that differ from its defaults.
enum AlgorithmName {
  static func of(_ model: ModelResult) -> String {
    guard let kind = ModelKind(rawValue: model.algorithm) else { return model.algorithm }
    var empty = SettingsReader()
    let defaults = (try? kind.makeClassifier(settings: &empty).parameters) ?? [:]
    let changed = model.params.keys.sorted().filter { defaults[$0] != model.params[$0] }
    let settings = changed.map { "\($0)=\(model.params[$0]!)" }.joined(separator: ", ")
    return settings.isEmpty ? kind.displayName : "\(kind.displayName) (\(settings))"
  }
}
