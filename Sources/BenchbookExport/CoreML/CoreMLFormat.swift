import BenchbookData
import BenchbookModels

/// Apple's Core ML model format (`.mlmodel`): a protocol-buffer pipeline
/// classifier that takes each feature by name (`CoreMLExporter`).
public struct CoreMLFormat: ExportFormat {
  public init() {}

  public var id: String { "coreml" }
  public var name: String { "Core ML" }
  public var fileExtension: String { "mlmodel" }
  /// A protocol-buffer message must stay under 2 GiB.
  public var sizeLimit: Int { Int(Int32.max) }
  public var takesCategoryIndices: Bool { false }
  public var carriesImputation: Bool { true }

  public func canWrite(_ kind: ExportForm.Kind) -> Bool { true }

  /// k-nearest neighbours (the app adds examples) and a linear model fitted by the log-loss (the app runs SGD
  /// on its examples: Core ML 3's personalisation).
  public func canUpdate(_ form: ExportForm) -> Bool {
    switch form {
    case .neighbors: true
    case .linear(let linear): linear.minimisesLogLoss
    case .gaussian, .tree, .treeEnsemble: false
    }
  }

  public func write(_ request: ExportRequest, form: ExportForm, limit: Int) throws(ExportError) -> ExportedFile {
    let exported = try CoreMLExporter.export(request, limit: limit)
    let version = exported.specificationVersion
    let kind = exported.model.stages.last?.model.kind.name ?? exported.model.kind.name
    return ExportedFile(
      format: id, bytes: exported.bytes,
      summary: "\(kind), Core ML specification \(version.rawValue) (\(version.iOSRelease ?? "unknown iOS release"))",
      coreML: exported)
  }

  public func recognises(_ bytes: [UInt8]) -> Bool {
    guard let model = try? CoreMLModel(serializedBytes: bytes) else { return false }
    return model.specificationVersion > 0 && model.kind != .none
  }

  public func inspect(_ bytes: [UInt8], fileName: String) throws(ModelFileError) -> String {
    let model = try CoreMLModel(serializedBytes: bytes)
    guard model.specificationVersion > 0, model.kind != .none else {
      throw ModelFileError("no specification version or model")
    }
    return ModelInspection.text(model, fileName: fileName, sizeBytes: bytes.count)
  }

  public func probabilities(_ bytes: [UInt8], rows x: Matrix, features: [FeatureSummary], classes: [String]) throws
    -> Matrix
  {
    try CoreMLEvaluator(serializedBytes: bytes).probabilities(
      RawFeatureRows.rows(x, features: features), classes: classes)
  }
}
