import BenchbookData

/// Ranges and cross-references in results.json that the report relies on: a tampered file holding 1e308 where
/// a count or a duration belongs, or a chosen configuration past the grid, is refused by its key path before any
/// of it is converted to an integer or used as an index.
extension ResultsValidation {
  /// The first figure out of its range or reference out of its list, or nil.
  static func boundsProblem(_ results: ExperimentResults) -> Problem? {
    if let problem = count(results.data.rows, "data.rows") ?? count(results.data.rowsRead, "data.rows_read")
      ?? count(results.data.droppedRows, "data.dropped_rows")
    {
      return problem
    }
    for (index, value) in results.data.classCounts.enumerated() {
      if let problem = count(value, "data.class_counts[\(index)]") { return problem }
    }
    if let budget = results.budget {
      if let size = budget.modelSizeBytes, let problem = count(size, "budget.model_size_bytes") { return problem }
      if let latency = budget.latencyMicrosecondsP99,
        let problem = bounded(latency, "budget.latency_us_p99", atMost: Limits.recordedMicroseconds)
      {
        return problem
      }
    }
    for (index, model) in results.models.enumerated() {
      let key = "models[\(index)]"
      if let problem = bounded(model.logLoss.mean, "\(key).log_loss.mean", atMost: Limits.recordedLogLoss)
        ?? model.modelSizeBytes.flatMap({ count($0, "\(key).model_size_bytes") })
        ?? count(model.parameterCount, "\(key).parameter_count")
        ?? latency(model.latencyMicroseconds, "\(key).latency_us")
      {
        return problem
      }
      for (name, size) in (model.modelSizes ?? [:]).sorted(by: { $0.key < $1.key }) {
        if let problem = count(size, "\(key).model_sizes.\(name)") { return problem }
      }
      for (position, fold) in model.folds.enumerated() {
        let foldKey = "\(key).folds[\(position)]"
        if let problem = bounded(fold.logLoss, "\(foldKey).log_loss", atMost: Limits.recordedLogLoss)
          ?? bounded(fold.fitSeconds, "\(foldKey).fit_seconds", atMost: Limits.recordedSeconds)
          ?? bounded(fold.predictSeconds, "\(foldKey).predict_seconds", atMost: Limits.recordedSeconds)
          ?? count(fold.trainRows, "\(foldKey).train_rows") ?? count(fold.testRows, "\(foldKey).test_rows")
          ?? count(fold.clippedRows, "\(foldKey).clipped_rows")
        {
          return problem
        }
      }
      for (position, bin) in (model.calibration?.bins ?? []).enumerated() {
        if let problem = count(bin.count, "\(key).calibration.bins[\(position)].count") { return problem }
      }
      if let tuning = model.tuning, let problem = tuningProblem(tuning, "\(key).tuning", folds: model.folds.count) {
        return problem
      }
    }
    return nil
  }

  /// A tuned model's grid and choices: at least one configuration, every index into it in range, one choice
  /// per outer fold, and a selection count per configuration.
  static func tuningProblem(_ tuning: TuningRecord, _ key: String, folds: Int) -> Problem? {
    let configurations = tuning.configurations.count
    guard configurations > 0 else {
      return Problem(key: "\(key).configurations", message: "is empty; a tuned model has at least one")
    }
    func index(_ value: Int?, _ key: String) -> Problem? {
      guard let value, !(0..<configurations).contains(value) else { return nil }
      return Problem(key: key, message: "is \(value), not a configuration (0 to \(configurations - 1))")
    }
    if let problem = index(tuning.finalConfiguration, "\(key).final_configuration")
      ?? index(tuning.defaults.configuration, "\(key).defaults.configuration")
      ?? bounded(tuning.defaults.flatLogLoss.mean, "\(key).defaults.flat_log_loss.mean", atMost: Limits.recordedLogLoss)
      ?? tuning.defaults.modelSizeBytes.flatMap({ count($0, "\(key).defaults.model_size_bytes") })
      ?? bounded(tuning.budgetLogLoss?.mean, "\(key).budget_log_loss.mean", atMost: Limits.recordedLogLoss)
    {
      return problem
    }
    guard tuning.chosen.count == folds else {
      return Problem(key: "\(key).chosen", message: "has \(tuning.chosen.count) choices for \(folds) outer folds")
    }
    for (name, choices) in [("chosen", tuning.chosen), ("chosen_within_budget", tuning.chosenWithinBudget ?? [])] {
      for (position, choice) in choices.enumerated() {
        if let problem = index(choice.configuration, "\(key).\(name)[\(position)].configuration")
          ?? bounded(choice.innerLogLoss, "\(key).\(name)[\(position)].inner_log_loss", atMost: Limits.recordedLogLoss)
        {
          return problem
        }
        if choice.fold < 0 || choice.fold >= folds {
          return Problem(key: "\(key).\(name)[\(position)].fold", message: "is \(choice.fold), not an outer fold")
        }
      }
    }
    guard tuning.selectionFrequency.count == configurations else {
      return Problem(
        key: "\(key).selection_frequency",
        message: "has \(tuning.selectionFrequency.count) counts for \(configurations) configurations")
    }
    for (position, value) in tuning.selectionFrequency.enumerated() {
      if let problem = count(value, "\(key).selection_frequency[\(position)]") { return problem }
    }
    for (position, configuration) in tuning.configurations.enumerated() {
      let entry = "\(key).configurations[\(position)]"
      if let problem = bounded(
        configuration.flatLogLoss.mean, "\(entry).flat_log_loss.mean", atMost: Limits.recordedLogLoss)
        ?? bounded(configuration.flatLogLoss.std, "\(entry).flat_log_loss.std", atMost: Limits.recordedLogLoss)
        ?? configuration.modelSizeBytes.flatMap({ count($0, "\(entry).model_size_bytes") })
        ?? count(configuration.parameterCount, "\(entry).parameter_count")
        ?? latency(configuration.latencyMicroseconds, "\(entry).latency_us")
      {
        return problem
      }
      for (fold, value) in configuration.flatFolds.enumerated() {
        if let problem = bounded(value, "\(entry).flat_folds[\(fold)]", atMost: Limits.recordedLogLoss) {
          return problem
        }
      }
      for (name, size) in (configuration.modelSizes ?? [:]).sorted(by: { $0.key < $1.key }) {
        if let problem = count(size, "\(entry).model_sizes.\(name)") { return problem }
      }
    }
    return nil
  }

  private static func latency(_ record: LatencyRecord?, _ key: String) -> Problem? {
    guard let record else { return nil }
    return bounded(record.p50, "\(key).p50", atMost: Limits.recordedMicroseconds)
      ?? bounded(record.p99, "\(key).p99", atMost: Limits.recordedMicroseconds)
  }

  /// A count of rows, bytes or fits: from 0 to `Limits.recordedCount`.
  private static func count(_ value: Int, _ key: String) -> Problem? {
    guard value < 0 || value > Limits.recordedCount else { return nil }
    return Problem(key: key, message: "is \(value), not a count from 0 to \(Limits.recordedCount)")
  }

  /// A finite figure from 0 to `limit`, when present.
  private static func bounded(_ value: Double?, _ key: String, atMost limit: Double) -> Problem? {
    guard let value else { return nil }
    guard value.isFinite, value >= 0, value <= limit else {
      return Problem(key: key, message: "is \(value), not a number from 0 to \(limit)")
    }
    return nil
  }
}
