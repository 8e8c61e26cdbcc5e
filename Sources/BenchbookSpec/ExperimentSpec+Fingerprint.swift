import BenchbookData

extension ExperimentSpec {
  /// The parts of the spec that decide what is measured, written canonically:
  /// target, features, time, missing-value policy, preprocessing, resampling, and the measured formats.
  /// Names, descriptions, comments, paths and models are left out, so editing
  /// them keeps results comparable (models are compared one by one).
  public var definitionText: String {
    let data = dataset
    var lines = ["target \(data.target.column.column)" + (data.target.when.map { " \($0)" } ?? "")]
    // Lines for the dialect, formats and `all_except` appear only when a spec uses them, so every other
    // definition reads as before.
    let dialect = data.dialect
    if !dialect.isDefault(forPath: data.path) || dialect.columnNames != nil {
      lines.append(
        "dialect delimiter=\(CSVDialect.spelling(dialect.delimiter)) "
          + "decimal=\(CSVDialect.spelling(dialect.decimalSeparator)) header=\(dialect.hasHeader)"
          + (dialect.columnNames.map { " columns=\($0.joined(separator: ","))" } ?? ""))
    }
    for column in data.timeFormats.keys.sorted() {
      lines.append("format \(column) \(data.timeFormats[column]!.format.text)")
    }
    if let allExcept = data.allExcept {
      lines.append(
        "features all_except \(allExcept.excluded.map(\.column).joined(separator: ","))"
          + (allExcept.types.isEmpty
            ? "" : " types \(allExcept.types.map { "\($0.column.column)=\($0.type.rawValue)" }.joined(separator: ","))")
      )
    }
    for feature in data.features {
      let source: String
      switch feature.source {
      case .column(let column): source = "column \(column)"
      case .expression(let expression): source = "expression \(expression)"
      }
      lines.append(
        "feature \(feature.name) = \(source)" + (feature.type.map { " as \($0.rawValue)" } ?? "")
          + (feature.impute.map { " \($0.definition)" } ?? ""))
    }
    lines.append("time \(data.time?.column ?? "-")")
    lines.append("missing \(data.missing.rawValue)")
    lines.append("preprocess \(preprocessing.map(\.definition).joined(separator: ","))")
    lines.append("resampling \(type(of: resampling).id) \(resampling.definitionText)")
    // Only specs that tune or budget get these lines, so every other definition reads as before.
    if tunes {
      lines.append("tune inner=\(tune.inner.id) folds=\(tune.innerFolds) metric=\(tune.metric)")
    }
    if let budget {
      lines.append(
        "budget model_size_bytes=\(budget.modelSizeBytes.map(String.init) ?? "-") "
          + "latency_us_p99=\(budget.latencyMicrosecondsP99.map { "\($0)" } ?? "-")"
          + (budget.format.map { " format=\($0)" } ?? ""))
    }
    // Only specs with an export section get this line.
    if exportFormats != nil { lines.append("export formats=\(measuredFormats.joined(separator: ","))") }
    return lines.joined(separator: "\n") + "\n"
  }
}
