import BenchbookData
import Foundation

/// Reads and writes `results.json`: sorted keys and shortest round-trip
/// numbers, so equal results are equal bytes.
public enum ResultsFile {
  public static let fileName = "results.json"

  public static func encode(_ results: ExperimentResults) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(results)) + [UInt8(ascii: "\n")]
  }

  /// Writes `directory/results.json` atomically and returns its path.
  @discardableResult
  public static func write(_ results: ExperimentResults, to directory: String) throws -> String {
    let path = (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    try AtomicFile.write(try encode(results), to: path)
    return path
  }

  public struct ReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
  }

  public static func read(_ path: String) throws(ReadError) -> ExperimentResults {
    let data: Data
    do {
      data = Data(try RegularFile.read(path))
    } catch {
      throw ReadError(path: path, reason: error.reason)
    }
    do {
      return try JSONDecoder().decode(ExperimentResults.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw ReadError(
        path: path, reason: "missing key '\(dotted(context.codingPath + [key]))'; not a Benchbook results file?")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
      throw ReadError(
        path: path, reason: "unexpected value at '\(dotted(context.codingPath))': \(context.debugDescription)")
    } catch {
      throw ReadError(path: path, reason: "not valid JSON: \(error.localizedDescription)")
    }
  }

  private static func dotted(_ path: [any CodingKey]) -> String {
    path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }
}
