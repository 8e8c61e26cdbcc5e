import BenchbookEvaluation
import BenchbookExport

/// How each tuned model chose its settings, and how much the choosing flatters the best grid score: the nested
/// score in *Results* is only trustworthy if the reader can see what it replaced.
struct TuningSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let tuned = context.ranked.filter { $0.tuning != nil }
    guard !tuned.isEmpty else { return nil }
    var text = "### Tuning\n\n"
    text += "A tuned model's score in the table above is *nested*: on every outer fold, an inner cross-validation "
    text += "of the training rows alone chose its settings, and only that choice was scored on the test fold. "
    text += "*Flat* scores every configuration on the outer folds directly. The best flat score is picked on the same "
    text += "folds it is scored on, so it is optimistic; the *selection optimism* (nested − best flat) is by how "
    text += "much, and the nested score is the honest estimate of tuning and fitting together.\n"
    for model in tuned { text += "\n" + describe(model, context) }
    return text
  }

  private func describe(_ model: ModelResult, _ context: ReportContext) -> String {
    let tuning = model.tuning!
    let folds = tuning.chosen.count
    var text = "#### \(model.label): \(AlgorithmName.of(model))\n\n"
    text += "- **Search:** \(TuningText.space(tuning)): \(count(tuning.configurations.count, "configuration")); "
    text += "each outer training set chooses one by its mean \(tuning.metric.replacingOccurrences(of: "_", with: "-")) "
    text += "over \(TuningText.inner(tuning.inner)) of its own rows.\n"
    text += "- **Score:** nested \(Format.meanStd(model.logLoss.mean, model.logLoss.std))"
    if let best = TuningText.bestFlat(tuning) {
      let flat = tuning.configurations[best.index]
      text += " against \(Format.meanStd(flat.flatLogLoss.mean, flat.flatLogLoss.std)) for the best flat "
      text += "configuration (\(TuningText.settings(flat.params, of: tuning)))"
      if let nested = model.logLoss.mean {
        let optimism = nested - best.mean
        text += ": selection optimism \(Format.difference(optimism))"
        if optimism < 0 { text += " (below zero by chance: choosing fold by fold happened to score better)" }
      }
    }
    text += ".\n"
    text += "- **Chosen per outer fold:** \(TuningText.choices(tuning.chosen, of: tuning, none: "none")).\n"
    if let top = tuning.selectionFrequency.enumerated().max(by: { $0.element < $1.element }), folds > 0,
      top.offset < tuning.configurations.count
    {
      text += "- **Stability:** \(Format.percent(Double(top.element) / Double(folds))) of the folds "
      text += "(\(top.element) of \(folds)) chose the most frequent configuration, "
      text += "\(TuningText.settings(tuning.configurations[top.offset].params, of: tuning)).\n"
    }
    text += "- **Final:** \(TuningText.settings(tuning.finalParams, of: tuning)), chosen the same way on all rows; "
    text += "this is what `benchbook export` ships"
    if let defaults = tuning.defaults.flatLogLoss.mean {
      text += " (its defaults score \(Format.fixed(defaults, 4)) flat, with "
      text += TuningText.settings(tuning.defaults.params, of: tuning)
      text += tuning.defaults.configuration == nil ? ", outside the grid)" : ")"
    }
    text += ".\n"
    if context.results.budget != nil { text += budgetChoice(tuning) }
    return text + "\n"
      + table(tuning, hasBudget: context.results.budget != nil, budgetFormat: context.results.budget?.format).markdown
  }

  /// The same choice made only among configurations inside the budget.
  private func budgetChoice(_ tuning: TuningRecord) -> String {
    guard let choices = tuning.chosenWithinBudget else { return "" }
    var text = "- **Inside the budget:** "
    let empty = choices.filter { $0.configuration == nil }.map(\.fold)
    if !choices.isEmpty && empty.count == choices.count {
      return text + "no configuration fits on any outer fold, so there is no nested score inside it.\n"
    }
    if choices.map(\.configuration) == tuning.chosen.map(\.configuration) {
      text += "every fold's choice fits, so the choices are the same"
    } else {
      text += TuningText.choices(choices, of: tuning, none: "no configuration fits")
    }
    if let score = tuning.budgetLogLoss {
      text += "; nested log-loss \(Format.meanStd(score.mean, score.std))"
    } else {
      text += empty.isEmpty ? "; no nested score" : "; no nested score, since \(TuningText.folds(empty)) had none"
    }
    return text + ".\n"
  }

  /// Every configuration of the grid, in grid order, with what it costs and how often it was chosen.
  /// - Parameter budgetFormat: the format a size budget limits, when not Core ML: its sizes get a column too.
  private func table(_ tuning: TuningRecord, hasBudget: Bool, budgetFormat: String?) -> MarkdownTable {
    let keys = TuningText.searchedKeys(tuning)
    var columns: [(String, MarkdownTable.Alignment)] = keys.map { ($0, .left) }
    columns += [("flat log-loss", .right), ("Core ML size", .right)]
    if let budgetFormat { columns.append(("\(ExportFormats.named(budgetFormat)?.name ?? budgetFormat) size", .right)) }
    columns.append(("p99 latency", .right))
    if hasBudget { columns.append(("within budget", .left)) }
    columns.append(("notes", .left))
    var table = MarkdownTable(columns)
    let best = TuningText.bestFlat(tuning)?.index
    for (index, configuration) in tuning.configurations.enumerated() {
      var row = keys.map { configuration.params[$0]?.description ?? "–" }
      row += [
        Format.meanStd(configuration.flatLogLoss.mean, configuration.flatLogLoss.std),
        configuration.modelSizeBytes.map(Format.bytes) ?? "–",
      ]
      if let budgetFormat { row.append(configuration.sizeBytes(in: budgetFormat).map(Format.bytes) ?? "–") }
      row.append(configuration.latencyMicroseconds.map { Format.microseconds($0.p99) } ?? "–")
      if hasBudget { row.append(configuration.withinBudget ? "yes" : "no") }
      var notes: [String] = []
      let times = index < tuning.selectionFrequency.count ? tuning.selectionFrequency[index] : 0
      if times > 0 { notes.append("chosen in \(count(times, "fold"))") }
      if index == tuning.finalConfiguration { notes.append("**final**") }
      if index == tuning.defaults.configuration { notes.append("defaults") }
      if index == best { notes.append("best flat") }
      row.append(notes.joined(separator: ", "))
      table.append(row)
    }
    return table
  }

  private func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
}
