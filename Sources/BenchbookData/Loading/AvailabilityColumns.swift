/// The leak audit's per-row times: when each prediction is made (`predict_at`)
/// and when each feature's value becomes known (`available_at`).
///
/// They are read for the audit only, so they never change which rows an
/// experiment uses: a missing or unparsable-as-missing value is `NaN`, never a
/// dropped row. A cell that is present but neither a number nor a timestamp is
/// still an error, since the spec asked for a time.
struct AvailabilityColumns {
  private struct Entry {
    /// The feature whose `available_at` this is; `nil` for `predict_at`.
    var feature: String?
    var time: AvailabilityTime
    var expression: FeatureExpression?
  }

  private let entries: [Entry]

  init(_ definition: DatasetDefinition) throws(DataError) {
    var entries: [Entry] = []
    if let predictAt = definition.predictAt {
      entries.append(try Self.entry(feature: nil, time: predictAt))
    }
    for feature in definition.features {
      if let availableAt = feature.availableAt {
        entries.append(try Self.entry(feature: feature.name, time: availableAt))
      }
    }
    self.entries = entries
  }

  private static func entry(feature: String?, time: AvailabilityTime) throws(DataError) -> Entry {
    switch time.source {
    case .column: return Entry(feature: feature, time: time, expression: nil)
    case .expression(let text):
      return Entry(
        feature: feature, time: time, expression: try FeatureExpression(parsing: text, location: time.location))
    }
  }

  /// Every column these times read, with the spec entry that named it.
  var references: [DatasetLoader.Reference] {
    entries.flatMap { entry -> [DatasetLoader.Reference] in
      switch entry.time.source {
      case .column(let name): return [DatasetLoader.Reference(column: name, location: entry.time.location)]
      case .expression(let text):
        return (entry.expression?.columns ?? []).map {
          DatasetLoader.Reference(column: $0, location: entry.time.location, expression: text)
        }
      }
    }
  }

  /// The times of the kept rows.
  func evaluate(store: ColumnStore, rows kept: [Int], lineNumbers: LineNumbers, path: String) throws(DataError) -> (
    predictAt: [Double]?, availableAt: [String: [Double]]
  ) {
    var predictAt: [Double]?
    var availableAt: [String: [Double]] = [:]
    for entry in entries {
      let values: [Double]
      switch entry.time.source {
      case .column(let name):
        let seconds = try Self.seconds(store: store, column: name, purpose: "a time")
        values = kept.map { seconds[$0] }
      case .expression(let text):
        guard let expression = entry.expression else { preconditionFailure("expression not parsed") }
        var inputs: [String: [Double]] = [:]
        for name in expression.columns {
          let seconds = try Self.seconds(store: store, column: name, purpose: "an input of '\(text)'")
          inputs[name] = kept.map { seconds[$0] }
        }
        let evaluator = ExpressionEvaluator(
          text: text, featureName: entry.feature ?? "predict_at", path: path, lineNumbers: lineNumbers, inputs: inputs)
        values = try evaluator.evaluate(expression)
      }
      if let feature = entry.feature { availableAt[feature] = values } else { predictAt = values }
    }
    return (predictAt, availableAt)
  }

  /// A column as timestamps in seconds (by its declared format), or as numbers when it is numeric without
  /// one; `NaN` where missing.
  private static func seconds(store: ColumnStore, column: String, purpose: String) throws(DataError) -> [Double] {
    let slot = store.slot(column)
    let scan = store.timestamps(slot)
    if let row = scan.firstFailure {
      let hint = store.formatHint(slot, row: row) { "data: {formats: {\(column): \"\($0)\"}}" }
      throw store.notATime(
        slot, row: row,
        use: "is neither a number nor a timestamp, but the spec reads it as \(purpose); "
          + "declare its format with \(hint)")
    }
    return scan.seconds
  }
}
