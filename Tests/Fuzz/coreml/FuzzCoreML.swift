import BenchbookExport

/// Fuzzes the protobuf reader as `benchbook inspect` uses it: decode a `.mlmodel` file's bytes into a
/// `CoreMLModel`, and describe every model that names a specification version and a kind. A thrown
/// `ModelFileError` (and its message) is a correct answer; only a crash, hang or leak is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do throws(ModelFileError) {
    let model = try CoreMLModel(serializedBytes: bytes)
    guard model.specificationVersion > 0, model.kind != .none else { return 0 }
    _ = ModelInspection.text(model, fileName: "model.mlmodel", sizeBytes: size)
  } catch {
    _ = "\(error)"
  }
  return 0
}
