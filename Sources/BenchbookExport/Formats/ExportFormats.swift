import BenchbookModels

/// Every format Benchbook writes, in the order help texts and reports list them.
public enum ExportFormats {
  public static let all: [any ExportFormat] = [CoreMLFormat(), TFLiteFormat(), ONNXFormat()]

  /// The format with this id, if any.
  public static func named(_ id: String) -> (any ExportFormat)? {
    all.first { $0.id == id }
  }

  /// Every format's id, for messages.
  public static var ids: [String] { all.map(\.id) }

  /// The format a file name's extension names (`.mlmodel`, `.tflite`, `.onnx`, in any case), if any.
  public static func named(byExtensionOf fileName: String) -> (any ExportFormat)? {
    all.first { fileName.lowercased().hasSuffix("." + $0.fileExtension) }
  }

  /// The format a file is in: the one its extension names, else the first that recognises its contents.
  public static func of(fileName: String, bytes: [UInt8]) -> (any ExportFormat)? {
    if let byName = named(byExtensionOf: fileName) { return byName }
    return all.first { $0.recognises(bytes) }
  }

  /// The formats a model exports to: those that hold the shape its descriptor declares, in the registry's order.
  public static func formats(for model: ModelDescriptor) -> [any ExportFormat] {
    all.filter { $0.canWrite(model.exportForm) }
  }

  /// Why `--updatable` cannot write `model` in `format`, as its descriptor declares (`ModelTraits.updatableFormats`),
  /// or `nil` when it can: the formats it can learn in, or else the models that can learn in this format.
  public static func updatableProblem(_ model: ModelDescriptor, in format: any ExportFormat) -> String? {
    guard !model.traits.updatableFormats.contains(format.id) else { return nil }
    let problem = "--updatable: a \(model.displayName) cannot learn from an app's examples in \(format.name)"
    let elsewhere = model.traits.updatableFormats.compactMap { named($0)?.name }
    if !elsewhere.isEmpty { return problem + "; it can in " + ExportMetadata.list(elsewhere) }
    let models = ModelRegistry.all.filter { $0.traits.updatableFormats.contains(format.id) }.map(\.displayName)
    if models.isEmpty { return problem + "; no model can in \(format.name)" }
    return problem + "; only " + ExportMetadata.list(models) + " can, in \(format.name)"
  }
}
