import BenchbookExport
import BenchbookModels

/// The registered models as `benchbook models` prints them: a paragraph per model, then its settings as a table.
enum ModelCatalog {
  static func text(_ models: [ModelDescriptor]) -> String {
    models.map(entry).joined(separator: "\n")
  }

  static func entry(_ model: ModelDescriptor) -> String {
    var text = "\(model.defaultLabel): \(model.displayName), scikit-learn's \(model.scikitLearnName)\n"
    text += "  names: \(model.names.joined(separator: ", "))\n"
    var notes: [String] = []
    if model.inDefaultSet { notes.append("in the default set") }
    if !notes.isEmpty { text += "  \(notes.joined(separator: "; "))\n" }
    let formats = ExportFormats.formats(for: model).map(\.id)
    text += "  exports to: \(formats.joined(separator: ", ")) (\(model.exportForm.rawValue) form)"
    if model.traits.updatable { text += "; updatable in \(model.traits.updatableFormats.joined(separator: ", "))" }
    text += "\n"
    let schema = model.settingsSchema
    guard !schema.isEmpty else { return text + "  no settings\n" }
    let rows = schema.map { setting in
      [
        (setting.searchable ? "* " : "  ") + setting.spellings.joined(separator: " | "), typeName(setting.type),
        "default \(SettingDescriptor.specText(setting.defaultValue))",
      ]
    }
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
    text += "  settings (* may be searched):\n"
    for row in rows {
      let cells = row.enumerated().map { column, cell in
        column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
      }
      text += "   " + cells.joined(separator: "  ") + "\n"
    }
    return text
  }

  static func typeName(_ type: SettingDescriptor.ValueType) -> String {
    switch type {
    case .number: "number"
    case .wholeNumber: "whole number"
    case .optionalWholeNumber: "whole number or none"
    case .flag: "true | false"
    case .word(let options): options.joined(separator: " | ")
    case .wordOrNumber(let options): (options + ["number"]).joined(separator: " | ")
    }
  }
}
