/// A written model file: its bytes and what the command line says about it.
public struct ExportedFile: Sendable {
  /// The format's id.
  public var format: String
  /// The file's exact contents.
  public var bytes: [UInt8]
  /// What `benchbook export` prints after the size: the model type and the version a runtime needs.
  public var summary: String
  /// The Core ML model, for a Core ML file.
  public var coreML: ExportedModel?

  public init(format: String, bytes: [UInt8], summary: String, coreML: ExportedModel? = nil) {
    self.format = format
    self.bytes = bytes
    self.summary = summary
    self.coreML = coreML
  }

  public var sizeBytes: Int { bytes.count }
}
