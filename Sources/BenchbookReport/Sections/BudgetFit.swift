import BenchbookEvaluation
import BenchbookExport

/// What an app can afford under the spec's budget, read one way by the headline and the tuning section, so the
/// two never disagree on which model fits.
enum BudgetFit {
  /// "a Core ML file of at most 3.0 kB and a one-row p99 latency of at most 2.0 µs".
  static func describe(_ budget: BudgetRecord) -> String {
    var limits: [String] = []
    if let size = budget.modelSizeBytes {
      let format = ExportFormats.named(budget.sizeFormat)?.name ?? budget.sizeFormat
      let article = "AEIOU".contains(format.first ?? "x") ? "an" : "a"
      limits.append("\(article) \(format) file of at most \(Format.bytes(size))")
    }
    if let latency = budget.latencyMicrosecondsP99 {
      limits.append("a one-row p99 latency of at most \(Format.microseconds(latency))")
    }
    return limits.isEmpty ? "no limits" : list(limits)
  }

  /// A model's score inside the budget. A tuned model is scored by choosing only among the configurations inside
  /// it (nested, so honest), and has none when some outer fold had no such configuration; an untuned model keeps
  /// its own score when its shipped file fits.
  static func score(_ model: ModelResult) -> Double? {
    if let tuning = model.tuning { return tuning.budgetLogLoss?.mean }
    return model.withinBudget == true ? model.logLoss.mean : nil
  }

  /// The lowest score inside the budget; ties go to the better-ranked model.
  static func best(_ context: ReportContext) -> (model: ModelResult, score: Double)? {
    context.ranked.compactMap { model in score(model).map { (model: model, score: $0) } }.min { $0.score < $1.score }
  }
}
