import BenchbookEvaluation

/// The data behind the scores: rows, drops, features and class balance.
struct DataSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let data = context.results.data
    var text = "## Data\n\n"
    text += "`\(data.path)`: \(Format.count(data.rowsRead)) rows read"
    if data.droppedRows > 0 {
      let reasons = data.droppedByColumn.keys.sorted().map {
        "\(Format.count(data.droppedByColumn[$0]!)) missing `\($0)`"
      }
      text += ", \(Format.count(data.droppedRows)) dropped (\(list(reasons)))"
    }
    text += ", \(Format.count(data.rows)) used. "
    text += "Target: `\(data.target)`" + (data.targetWhen.map { " \($0) → class 1, else class 0" } ?? "") + ".\n\n"
    text += reading(data)
    if let time = data.time {
      text += "Time column `\(time.column)` runs from \(time.first) to \(time.last).\n\n"
    }
    var features = MarkdownTable([("feature", .left), ("type", .left), ("values", .left), ("missing", .right)])
    for feature in data.featureSummaries {
      let values: String
      if let categories = feature.categories {
        let shown = categories.prefix(8).map { "`\($0)`" }.joined(separator: ", ")
        values = "\(categories.count) categories: \(shown)\(categories.count > 8 ? ", …" : "")"
      } else if let low = feature.min, let high = feature.max {
        values = "\(Format.number(low)) to \(Format.number(high))"
      } else {
        values = "–"
      }
      features.append([feature.name, feature.type.rawValue, values, Format.count(feature.missing)])
    }
    text += features.markdown + "\n"
    var balance = MarkdownTable([("class", .left), ("rows", .right), ("share", .right)])
    let total = data.classCounts.reduce(0, +)
    for (name, count) in zip(data.classes, data.classCounts) {
      balance.append(["`\(name)`", Format.count(count), Format.percent(Double(count) / Double(max(1, total)))])
    }
    text += "Class balance:\n\n" + balance.markdown
    return text
  }

  /// How the file was read, when that is worth saying: its dialect, a skipped row-name column, declared
  /// timestamp formats. Empty for a plain CSV.
  func reading(_ data: DataRecord) -> String {
    var notes: [String] = []
    if let dialect = data.dialect {
      let delimiter =
        switch dialect.delimiter {
        case "\t": "tab"
        case ",": "comma"
        case ";": "semicolon"
        default: "`\(dialect.delimiter)`"
        }
      var note = "Read as \(delimiter)-separated text"
      if dialect.decimal == "," { note += " with decimal commas" }
      if !dialect.header {
        note +=
          dialect.names == "spec"
          ? ", without a header row (column names from the spec)"
          : ", without a header row (columns named V1, V2, … in file order)"
      }
      notes.append(note + ".")
    }
    if let rowNames = data.rowNames {
      notes.append(
        rowNames.header.isEmpty
          ? "The file's unnamed first column holds \(rowNames.writer)'s row names; it was skipped."
          : "The file's first column, `\(rowNames.header)`, is \(rowNames.writer)'s row index; it was skipped.")
    }
    if let formats = data.formats, !formats.isEmpty {
      let shown = formats.keys.sorted().map { "`\($0)` as `\(formats[$0]!)`" }
      notes.append("Timestamps read with declared formats: \(list(shown)) (UTC).")
    }
    return notes.isEmpty ? "" : notes.joined(separator: " ") + "\n\n"
  }
}
