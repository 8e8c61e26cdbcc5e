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
}
