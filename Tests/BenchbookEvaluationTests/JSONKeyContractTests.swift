import BenchbookEvaluation
import Foundation
import Testing

/// results.json's and a baseline's keys are a contract: every shipped file, read and written again the way
/// Benchbook reads and writes it (`JSONCoding`), has exactly the keys it had, at every depth. A key the snake_case
/// strategy would spell otherwise than the file does fails here.
@Suite struct JSONKeyContractTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func files(_ directory: String, matching suffix: String) -> [String] {
    let url = root.appendingPathComponent(directory)
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(suffix) }.sorted().map { "\(directory)/\($0)" }
  }

  static let shippedResults = files("reports", matching: "/results.json")
  static let shippedBaselines = files("experiments/baselines", matching: ".json")

  /// Every key path of a JSON value: `models[].folds[].log_loss`.
  static func keyPaths(_ value: Any, _ path: String = "") -> Set<String> {
    if let object = value as? [String: Any] {
      return object.reduce(into: Set<String>()) { paths, entry in
        let child = path.isEmpty ? entry.key : "\(path).\(entry.key)"
        paths.insert(child)
        paths.formUnion(keyPaths(entry.value, child))
      }
    }
    if let array = value as? [Any] {
      return array.reduce(into: Set<String>()) { paths, element in paths.formUnion(keyPaths(element, path + "[]")) }
    }
    return []
  }

  static func keys(_ bytes: [UInt8]) throws -> Set<String> {
    keyPaths(try JSONSerialization.jsonObject(with: Data(bytes)))
  }

  /// The shipped experiments' results (one per spec under experiments/, and a study's experiments), and their
  /// baselines.
  @Test func everyShippedFileIsFound() throws {
    let specs = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("experiments").path
    )
    .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
    #expect(!specs.isEmpty)
    for name in specs {
      #expect(Self.shippedResults.contains("reports/\(name)/results.json"), "\(name)")
      #expect(Self.shippedBaselines.contains("experiments/baselines/\(name).json"), "\(name)")
    }
  }

  @Test(arguments: shippedResults)
  func resultsKeepTheirKeys(_ file: String) throws {
    let path = Self.root.appendingPathComponent(file).path
    let before = try Self.keys(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    let after = try Self.keys(try ResultsFile.encode(try ResultsFile.read(path)))
    #expect(before.subtracting(after).sorted() == [], "keys lost")
    #expect(after.subtracting(before).sorted() == [], "keys added")
  }

  @Test(arguments: shippedBaselines)
  func baselinesKeepTheirKeys(_ file: String) throws {
    let path = Self.root.appendingPathComponent(file).path
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let baseline = try JSONCoding.decoder().decode(Baseline.self, from: Data(bytes))
    let again = try JSONCoding.encoder([.sortedKeys]).encode(baseline)
    let before = try Self.keys(bytes)
    let after = try Self.keys(Array(again))
    #expect(before.subtracting(after).sorted() == [], "keys lost")
    #expect(after.subtracting(before).sorted() == [], "keys added")
  }
}

/// Key paths in messages use the files' spelling.
@Suite struct JSONCodingKeyTests {
  @Test(arguments: [
    ("testRows", "test_rows"), ("rocAuc", "roc_auc"), ("planSha256", "plan_sha256"), ("pseudoR2", "pseudo_r2"),
    ("latencyUs", "latency_us"), ("log_loss", "log_loss"), ("C", "C"), ("models", "models"),
  ])
  func fileKeyIsTheEncodersKey(_ key: String, _ expected: String) throws {
    #expect(JSONCoding.fileKey(key) == expected)
    // The encoder's own spelling, for a key with a lower-case letter before an upper-case one.
    struct One: Encodable {
      let key: String
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(1, forKey: AnyKey(stringValue: key)!)
      }
    }
    if key.contains(where: \.isUppercase) && key.first!.isLowercase {
      let json = String(decoding: try JSONCoding.encoder().encode(One(key: key)), as: UTF8.self)
      #expect(json == "{\"\(expected)\":1}")
    }
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
