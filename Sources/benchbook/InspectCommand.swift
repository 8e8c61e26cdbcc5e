import ArgumentParser
import BenchbookCoreML
import Foundation

struct InspectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract: "Describe a Core ML model file: inputs, outputs, type, pipeline stages, specification version, size."
  )

  @Argument(help: "A .mlmodel file.")
  var file: String

  func run() throws {
    try CommandLineFailure.reporting {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw CommandError(
          "\(file): \(FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file")")
      }
      let bytes = [UInt8](data)
      let model: CoreMLModel
      do {
        model = try CoreMLModel(serializedBytes: bytes)
      } catch {
        throw CommandError("\(file): not a Core ML model file: \(error)")
      }
      guard model.specificationVersion > 0, model.kind != .none else {
        throw CommandError("\(file): not a Core ML model file (no specification version or model)")
      }
      print(ModelInspection.text(model, fileName: file, sizeBytes: bytes.count), terminator: "")
    }
  }
}
