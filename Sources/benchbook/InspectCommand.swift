import ArgumentParser
import BenchbookData
import BenchbookExport
import Foundation

struct InspectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract:
      "Describe a model file (Core ML .mlmodel, TensorFlow Lite .tflite, ONNX .onnx): inputs, outputs, type, stages "
      + "or operators, versions, metadata, size."
  )

  @Argument(help: "A .mlmodel, .tflite or .onnx file.")
  var file: String

  func run() throws {
    try CommandLineFailure.reporting {
      let bytes: [UInt8]
      do throws(RegularFile.Failure) {
        bytes = try RegularFile.read(file, atMost: Limits.modelFileBytes, what: "a model file")
      } catch {
        throw CommandError("\(file): \(error.reason)")
      }
      guard let format = ExportFormats.of(fileName: file, bytes: bytes) else {
        throw CommandError(
          "\(file): not a Core ML model file, nor a TensorFlow Lite or ONNX one (no format recognises its bytes)")
      }
      do {
        print(try format.inspect(bytes, fileName: file), terminator: "")
      } catch {
        throw CommandError("\(file): not a \(format.name) model file: \(error)")
      }
    }
  }
}
