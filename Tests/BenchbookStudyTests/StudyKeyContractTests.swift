import BenchbookStudy
import Foundation
import Testing

/// study.json's keys are a contract: the shipped study, read and written again as Benchbook reads and writes it
/// (`JSONCoding`), has exactly the keys it had, at every depth.
@Suite struct StudyKeyContractTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

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

  @Test func shippedStudyKeepsItsKeys() throws {
    let path = Self.root.appendingPathComponent("reports/classic/study.json").path
    let before = Self.keyPaths(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))))
    let again = try StudyFile.encode(try StudyFile.read(path))
    let after = Self.keyPaths(try JSONSerialization.jsonObject(with: Data(again)))
    #expect(!before.isEmpty)
    #expect(before.subtracting(after).sorted() == [], "keys lost")
    #expect(after.subtracting(before).sorted() == [], "keys added")
  }
}
