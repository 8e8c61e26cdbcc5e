import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import BenchbookSpec
import Foundation

/// `benchbook export --predictions`: what a runtime check needs to judge an
/// exported file without Benchbook. A JSON object:
///
/// - `experiment`, `model`, `algorithm`, `params` (scikit-learn's names),
///   `preprocess`, `format`, `file`;
/// - `features` (name, type, categories), `classes`, `columns` (the design
///   matrix's column names);
/// - `rows`: up to 2,000 row numbers spread evenly over the data (all when
///   fewer), and for each, `inputs` (each feature as the file takes it: a
///   number, or for a category its index in TensorFlow Lite and its text
///   otherwise; a missing value as the file takes it: null, read as NaN, for
///   a number and a TensorFlow Lite category index, "" for a category's text)
///   and `probabilities` (Benchbook's own fitted model);
/// - `imputation`: each imputed feature (name, its design columns, strategy,
///   `fill_value`, `add_indicator`) in feature order, empty without `impute`;
/// - `design` and `labels`: every row's design-matrix values (unscaled) and
///   class index, so a check can fit scikit-learn on the same rows.
///
/// Numbers are written in Swift's shortest round-trip form, so a reader gets
/// the exact doubles.
enum PredictionsFile {
  static let checkedRows = 2000

  static func text(
    _ spec: ExperimentSpec, dataset: Dataset, model: ModelSpec, pipeline: FittedPipeline, format: any ExportFormat,
    file: String
  ) -> String {
    let x = dataset.x
    let count = min(checkedRows, x.rows)
    let rows = (0..<count).map { $0 * x.rows / count }
    let probabilities = pipeline.predictProbabilities(x.selecting(rows: rows))
    var out = "{\n"
    func field(_ key: String, _ value: String, last: Bool = false) {
      out += "  \(quote(key)): \(value)\(last ? "\n" : ",\n")"
    }
    field("experiment", quote(spec.name))
    field("model", quote(model.label))
    field("algorithm", quote(model.descriptor.id))
    let params = model.classifier.parameters.keys.sorted().map { key in
      "\(quote(key)): \(json(model.classifier.parameters[key]!))"
    }
    field("params", "{" + params.joined(separator: ", ") + "}")
    field("preprocess", "[" + spec.preprocessing.map { quote($0.rawValue) }.joined(separator: ", ") + "]")
    field("format", quote(format.id))
    field("file", quote(file))
    let features = dataset.features.map { feature in
      var text =
        "{\"name\": \(quote(feature.name)), \"type\": \(quote(feature.type == .numeric ? "numeric" : "categorical"))"
      if let categories = feature.categories {
        text += ", \"categories\": [" + categories.map(quote).joined(separator: ", ") + "]"
      }
      return text + "}"
    }
    field("features", "[" + features.joined(separator: ", ") + "]")
    field("classes", "[" + dataset.classes.map(quote).joined(separator: ", ") + "]")
    field("columns", "[" + dataset.columnNames.map(quote).joined(separator: ", ") + "]")
    field("rows", "[" + rows.map(String.init).joined(separator: ", ") + "]")
    let imputed = dataset.features.compactMap { feature -> String? in
      guard let imputation = feature.imputation,
        feature.type == .numeric || imputation.strategy.fillsCategories
      else { return nil }
      return "{\"name\": \(quote(feature.name)), \"columns\": [\(feature.columns.lowerBound), "
        + "\(feature.columns.upperBound)], \"strategy\": \(quote(imputation.strategy.rawValue)), \"fill_value\": "
        + (imputation.fillValue.map(quote) ?? "null") + ", \"add_indicator\": \(imputation.addIndicator)}"
    }
    field("imputation", "[" + imputed.joined(separator: ", ") + "]")
    var inputs: [String] = []
    for r in rows {
      let values = dataset.features.map { feature -> String in
        switch feature.type {
        case .numeric: return number(x[r, feature.columns.lowerBound])
        case .categorical where x[r, feature.columns.lowerBound].isNaN:
          return format.takesCategoryIndices ? "null" : quote("")
        case .categorical:
          var chosen = 0
          for (i, column) in feature.columns.enumerated() where x[r, column] > x[r, feature.columns.lowerBound + chosen]
          {
            chosen = i
          }
          return format.takesCategoryIndices ? String(chosen) : quote(feature.categories?[chosen] ?? "")
        }
      }
      inputs.append("[" + values.joined(separator: ", ") + "]")
    }
    field("inputs", "[\n    " + inputs.joined(separator: ",\n    ") + "\n  ]")
    field("probabilities", "[\n    " + matrixRows(probabilities).joined(separator: ",\n    ") + "\n  ]")
    field("design", "[\n    " + matrixRows(x).joined(separator: ",\n    ") + "\n  ]")
    field("labels", "[" + dataset.labels.map(String.init).joined(separator: ", ") + "]", last: true)
    return out + "}\n"
  }

  private static func matrixRows(_ m: Matrix) -> [String] {
    (0..<m.rows).map { r in
      "[" + (0..<m.columns).map { number(m[r, $0]) }.joined(separator: ", ") + "]"
    }
  }

  /// Shortest round-trip text; JSON has no infinities or NaN, so those are null.
  private static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
  }

  private static func json(_ value: ParameterValue) -> String {
    switch value {
    case .int(let v): String(v)
    case .double(let v): number(v)
    case .string(let v): quote(v)
    case .bool(let v): v ? "true" : "false"
    case .none: "null"
    }
  }

  private static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
