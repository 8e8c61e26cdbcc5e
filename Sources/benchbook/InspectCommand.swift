import ArgumentParser
import BenchbookExport
import BenchbookData
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
      let bytes: [UInt8]
      do throws(RegularFile.Failure) {
        bytes = try RegularFile.read(file)
      } catch {
        throw CommandError("\(file): \(error.reason)")
      }
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
