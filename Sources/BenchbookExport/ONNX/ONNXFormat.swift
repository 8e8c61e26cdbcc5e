import BenchbookData
import BenchbookModels

/// ONNX (placeholder until the writer lands).
public struct ONNXFormat: ExportFormat {
  public init() {}
  public var id: String { "onnx" }
  public var name: String { "ONNX" }
  public var fileExtension: String { "onnx" }
  public var sizeLimit: Int { Int(Int32.max) }
  public func canWrite(_ form: ExportForm) -> Bool { false }
  public func canUpdate(_ form: ExportForm) -> Bool { false }
  public func write(_ request: ExportRequest, form: ExportForm, limit: Int) throws(ExportError) -> ExportedFile {
    throw ExportError("ONNX is not written yet")
  }
  public func recognises(_ bytes: [UInt8]) -> Bool { false }
  public func inspect(_ bytes: [UInt8], fileName: String) throws(ModelFileError) -> String { "" }
  public func probabilities(_ bytes: [UInt8], rows x: Matrix, features: [FeatureSummary], classes: [String]) throws
    -> Matrix
  { Matrix(rows: 0, columns: 0) }
}
