import BenchbookData
import Foundation

/// Reads and writes `results.json`: sorted keys and shortest round-trip
/// numbers, so equal results are equal bytes.
public enum ResultsFile {
  /// Foundation's "Expected to decode Int but found an array instead." as a sentence in the file's terms:
  /// "expected a whole number, found a list".
  static func mismatch(_ type: Any.Type, _ description: String) -> String {
    let expected =
      switch type {
      case is Int.Type, is Int32.Type, is Int64.Type, is UInt64.Type, is UInt.Type: "a whole number"
      case is Double.Type, is Float.Type: "a number"
      case is String.Type: "a string"
      case is Bool.Type: "true or false"
      default:
        String(describing: type).hasPrefix("Array")
          ? "a list" : (String(describing: type).hasPrefix("Dictionary") ? "an object" : "a value of another kind")
      }
    var found = "something else"
    if description.contains("found null") || description.contains("but found nil") || description.contains("null value")
    {
      found = "null"
    } else if let range = description.range(of: "but found ") {
      let rest = description[range.upperBound...]
      let word = rest.split(separator: " ").first.map(String.init) ?? ""
      found =
        switch word.lowercased() {
        case "an", "a": rest.split(separator: " ").dropFirst().first.map { kindWord(String($0)) } ?? "something else"
        default: kindWord(word)
        }
    }
    return "expected \(expected), found \(found)"
  }

  private static func kindWord(_ word: String) -> String {
    switch word.lowercased().trimmingCharacters(in: .punctuationCharacters) {
    case "array": "a list"
    case "dictionary", "object": "an object"
    case "string": "a string"
    case "number": "a number"
    case "bool", "boolean": "true or false"
    case "null", "nil": "null"
    default: "something else"
    }
  }

  /// Foundation's "Parsed JSON number <1e308> does not fit in Int." as a sentence.
  static func corrupted(_ description: String) -> String {
    if description.hasPrefix("Parsed JSON number <"), let end = description.firstIndex(of: ">") {
      let number = description[description.index(description.startIndex, offsetBy: 20)..<end]
      return "\(number) is not a whole number in range"
    }
    return description
  }

  public static let fileName = "results.json"

  public static func encode(_ results: ExperimentResults) throws -> [UInt8] {
    try encodeContract(results)
  }

  /// Any contract file (results.json, a study's study.json) as results.json is written: `JSONCoding`'s keys,
  /// sorted, pretty-printed.
  public static func encodeContract(_ value: some Encodable) throws -> [UInt8] {
    let encoder = JSONCoding.encoder([.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
  }

  /// Writes `directory/results.json` atomically and returns its path.
  @discardableResult
  public static func write(_ results: ExperimentResults, to directory: String) throws -> String {
    let path = (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    try AtomicFile.write(try encode(results), to: path)
    return path
  }

  /// A results file that cannot be read or breaks the contract: `path:line:column: message` for JSON
  /// syntax, `path: key.path: message` for a value.
  public struct ReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path)\(reason.first == ":" ? "" : ": ")\(reason)" }

    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }
  }

  /// Reads and checks `path` (see `ResultsValidation`).
  public static func read(_ path: String) throws(ReadError) -> ExperimentResults {
    let results = try decode(ExperimentResults.self, at: path, kind: "results file")
    if let problem = ResultsValidation.firstProblem(results) {
      throw ReadError(path: path, reason: problem.description)
    }
    return results
  }

  /// Reads one of Benchbook's JSON files (results, baseline, study, shard) as `type`, so every such file's fault
  /// is reported alike: its line and column for JSON syntax, the dotted key path for a value.
  /// - Parameters:
  ///   - kind: what the file should be, for a missing key ("not a Benchbook baseline?").
  ///   - plainKeys: the file was written with Swift's own key names (shard files), not `JSONCoding`'s.
  public static func decode<T: Decodable>(_ type: T.Type, at path: String, kind: String, plainKeys: Bool = false)
    throws(ReadError) -> T
  {
    let bytes: [UInt8]
    do {
      bytes = try RegularFile.read(path, atMost: Limits.jsonFileBytes, what: "a \(kind)")
    } catch {
      throw ReadError(path: path, reason: error.reason)
    }
    // Foundation's decoder forgives some faults (a trailing comma); the contract is strict JSON.
    if let fault = JSONSyntax.firstFault(bytes) {
      throw ReadError(path: path, reason: ":\(fault.line):\(fault.column): not valid JSON: \(fault.message)")
    }
    func dotted(_ path: [any CodingKey]) -> String {
      path.map { key in
        key.intValue.map { "[\($0)]" } ?? (plainKeys ? key.stringValue : JSONCoding.fileKey(key.stringValue))
      }.joined(separator: ".")
    }
    do {
      return try (plainKeys ? JSONDecoder() : JSONCoding.decoder()).decode(type, from: Data(bytes))
    } catch let DecodingError.keyNotFound(key, context) {
      throw ReadError(
        path: path, reason: "\(dotted(context.codingPath + [key])): missing; not a Benchbook \(kind)?")
    } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
      throw ReadError(path: path, reason: "\(dotted(context.codingPath)): \(mismatch(type, context.debugDescription))")
    } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
      throw ReadError(path: path, reason: "\(dotted(context.codingPath)): \(corrupted(context.debugDescription))")
    } catch {
      throw ReadError(path: path, reason: "not valid JSON: \(error.localizedDescription)")
    }
  }
}
