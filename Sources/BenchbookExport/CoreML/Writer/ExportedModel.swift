/// A written Core ML model: its bytes and what a report says about them.
public struct ExportedModel: Sendable {
  /// The model as written; decoding `bytes` gives it back.
  public var model: CoreMLModel
  /// The `.mlmodel` file's exact contents.
  public var bytes: [UInt8]

  /// The exact file size.
  public var sizeBytes: Int { bytes.count }

  /// The lowest specification version the file needs (its declared version).
  public var specificationVersion: SpecificationVersion { SpecificationVersion(model.specificationVersion) }
}
