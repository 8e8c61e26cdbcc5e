import BenchbookExport

/// Fuzzes the model-file readers as `benchbook inspect` uses them: decode the bytes as a Core ML model (the
/// protobuf reader), as a TensorFlow Lite FlatBuffer and as an ONNX model, and describe every one that reads.
/// A thrown `ModelFileError` (and its message) is a correct answer; only a crash, hang or leak is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do throws(ModelFileError) {
    let model = try CoreMLModel(serializedBytes: bytes)
    if model.specificationVersion > 0, model.kind != .none {
      _ = ModelInspection.text(model, fileName: "model.mlmodel", sizeBytes: size)
    }
  } catch {
    _ = "\(error)"
  }
  for format in ExportFormats.all where format.id != CoreMLFormat().id && format.recognises(bytes) {
    do {
      _ = try format.inspect(bytes, fileName: "model.\(format.fileExtension)")
    } catch {
      _ = "\(error)"
    }
  }
  return 0
}
