import BenchbookEvaluation
import Foundation
import Testing

/// Every JSON file Benchbook reads back (results, a baseline, a shard) reports a fault alike, through
/// `ResultsFile.decode(_:at:kind:plainKeys:)`: the line and column of bad syntax, the key path of a missing or
/// mistyped value, and the kind of file it should have been.
@Suite struct ContractFileReadingTests {
  static let iris = JSONKeyContractTests.root.appendingPathComponent("experiments/baselines/iris.json").path

  static func scratch(_ name: String, _ text: String) throws -> (directory: URL, path: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return (directory, path)
  }

  static func message(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func aShippedBaselineReads() throws {
    #expect(try RegressionCheck.loadBaseline(Self.iris).experiment == "iris")
  }

  /// Foundation's decoder would accept the trailing comma; the reader names where the syntax breaks.
  @Test func aBaselineWithBadSyntaxNamesItsLineAndColumn() throws {
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.iris)), as: UTF8.self)
    let broken = text.replacingOccurrences(of: "\"experiment\" : \"iris\",", with: "\"experiment\" : \"iris\",,")
    #expect(broken != text)
    let (directory, path) = try Self.scratch("baseline.json", broken)
    defer { try? FileManager.default.removeItem(at: directory) }
    let message = try #require(Self.message { _ = try RegressionCheck.loadBaseline(path) })
    #expect(message.hasPrefix("\(path):4:"), "\(message)")
    #expect(message.contains("not valid JSON"), "\(message)")
  }

  @Test func aBaselineWithoutAKeyNamesTheKeyAndTheKindOfFile() throws {
    let (directory, path) = try Self.scratch("baseline.json", #"{"benchbook": "0.1.0"}"#)
    defer { try? FileManager.default.removeItem(at: directory) }
    let message = try #require(Self.message { _ = try RegressionCheck.loadBaseline(path) })
    #expect(message.hasPrefix("\(path): "), "\(message)")
    #expect(message.hasSuffix(": missing; not a Benchbook baseline?"), "\(message)")
  }

  /// Shard files keep Swift's own key names, and a missing one is named as the file spells it.
  @Test func aShardFileWithoutAKeyNamesTheKeyAsTheFileSpellsIt() throws {
    let (directory, path) = try Self.scratch("shard-0-of-2.json", #"{"identity": {"benchbook": "0.1.0"}}"#)
    defer { try? FileManager.default.removeItem(at: directory) }
    let message = try #require(Self.message { _ = try ShardMerge.read([directory.path]) })
    #expect(message.hasPrefix("\(path): identity."), "\(message)")
    #expect(message.hasSuffix(": missing; not a Benchbook shard file?"), "\(message)")
  }
}
