import BenchbookEvaluation
import BenchbookExport
import BenchbookModels

/// What shipping each model costs: its Core ML file, the iOS release it needs,
/// and why nearest neighbours grow with the data.
struct OnDeviceSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let models = context.ranked
    guard models.contains(where: { $0.modelSizeBytes != nil || $0.coremlError != nil }) else { return nil }
    var text = "### On-device cost\n\n"
    let sized = models.filter { $0.modelSizeBytes != nil }.sorted { $0.modelSizeBytes! < $1.modelSizeBytes! }
    if let smallest = sized.first, let largest = sized.last, sized.count > 1 {
      text += "The smallest file is \(smallest.label)'s (\(Format.bytes(smallest.modelSizeBytes!))), "
      text += "the largest \(largest.label)'s (\(Format.bytes(largest.modelSizeBytes!))). "
    }
    text += "Every file is a Core ML pipeline that takes the spec's features by name and does its own preprocessing, "
    text +=
      "so an app passes raw values; `benchbook export` writes it and `benchbook inspect` shows what is inside.\n\n"
    text += formatTable(models)
    let features = context.results.data.columns.count
    // A model that stores its training rows (k-nearest neighbours) ships them all.
    for model in models where model.descriptor?.storedSize == .trainingRows {
      let rows = context.results.data.rows
      // Rows and columns come from the results file: multiplied with overflow checks, a tampered count reads as
      // huge instead of trapping.
      let (bytes, overflow) = rows.multipliedReportingOverflow(by: features)
      let (float32Bytes, overflow4) = bytes.multipliedReportingOverflow(by: 4)
      let samples = overflow || overflow4 ? "more than \(Format.bytes(Int.max))" : Format.bytes(float32Bytes)
      text += "- **\(model.label)** stores every training row: \(Format.count(rows)) samples × \(features) "
      text += "feature\(features == 1 ? "" : "s") as float32 ≈ \(samples), so its file grows with the data and its "
      text += "prediction time with the rows it searches"
      if case .string(let index)? = model.params["algorithm"], index != "auto" {
        text += " (index: \(index == "brute" ? "linear scan" : index.replacingOccurrences(of: "_", with: "-")))"
      }
      text += ".\n"
    }
    let indexes = models.filter { $0.descriptor?.storedSize == .trainingRows }
    let kinds = Set(
      indexes.compactMap { model -> String? in
        if case .string(let index)? = model.params["algorithm"], index != "auto" { return index }
        return nil
      })
    if kinds.count > 1 {
      text += "- The nearest-neighbour models differ in their index; their single-row latencies sit side by side in "
      text +=
        "the timing table: \(indexes.map { "\($0.label) \($0.latencyMicroseconds.map { Format.microseconds($0.p50) } ?? "–")" }.joined(separator: ", ")).\n"
    }
    for model in models where model.descriptor?.storedSize == .treeNodes && model.modelSizeBytes != nil {
      if case .int(let depth)? = model.params["max_depth"] {
        text += "- **\(model.label)** is one tree, at most \(depth) levels deep "
      } else {
        text +=
          "- **\(model.label)** is one fully grown tree, which keeps splitting while rows differ, so its file grows "
        text += "with the data "
      }
      text += "(\(Format.count(model.parameterCount)) stored numbers here).\n"
    }
    for model in models where model.coremlError != nil {
      text += "- **\(model.label)** could not be exported: \(model.coremlError!).\n"
    }
    for model in models {
      for (id, message) in (model.exportErrors ?? [:]).sorted(by: { $0.key < $1.key }) {
        text += "- **\(model.label)** could not be written as \(ExportFormats.named(id)?.name ?? id): \(message).\n"
      }
    }
    return text
  }

  /// Each measured format's file side by side, when the spec measures more than Core ML (`export.formats`):
  /// the same fitted model, with its preprocessing, in each runtime's file.
  private func formatTable(_ models: [ModelResult]) -> String {
    let measured = Set(models.flatMap { ($0.modelSizes ?? [:]).keys })
    let formats = ExportFormats.all.filter { measured.contains($0.id) }
    guard !formats.isEmpty else { return "" }
    var table = MarkdownTable(
      [("Model", .left)] + formats.map { ("\($0.name) (.\($0.fileExtension))", .right) })
    for model in models {
      table.append(
        [model.label]
          + formats.map { format in
            model.modelSizes?[format.id].map(Format.bytes) ?? (model.exportErrors?[format.id] == nil ? "–" : "failed")
          })
    }
    return "The same fitted models in each measured format (TensorFlow Lite and ONNX take the features as one "
      + "float32 row, or one input each in ONNX when some are categories; `benchbook export --format`):\n\n"
      + table.markdown + "\n"
  }
}
