import BenchbookData
import Foundation

/// A fresh temporary directory for one test's inline fixtures, removed when
/// the test's suite instance goes away.
final class TemporaryFiles: Sendable {
  let directory: String

  init() {
    directory = NSTemporaryDirectory() + "benchbook-data-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Writes `text` byte for byte (no newline added) and returns the absolute path.
  func write(_ text: String, name: String = "data.csv") -> String {
    write(Array(text.utf8), name: name)
  }

  func write(_ bytes: [UInt8], name: String) -> String {
    let path = directory + "/" + name
    precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
    return path
  }
}

/// Committed fixtures beside the tests (see `Fixtures/make_fixtures.py`).
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  static func path(_ name: String) -> String { directory + "/" + name }
}

/// Spec locations for definitions built in tests: `spec.yaml:<line>`.
func spec(_ line: Int) -> SourceLocation { SourceLocation(file: "spec.yaml", line: line) }

func column(_ name: String, type: FeatureType? = nil, line: Int = 10) -> FeatureDefinition {
  FeatureDefinition(name: name, source: .column(name), type: type, location: spec(line))
}

func derived(_ name: String, _ expression: String, type: FeatureType? = nil, line: Int = 20) -> FeatureDefinition {
  FeatureDefinition(name: name, source: .expression(expression), type: type, location: spec(line))
}

/// A definition with the target named at spec line 5 and the time column at line 30.
func definition(
  _ path: String, target: String, when: Threshold? = nil, features: [FeatureDefinition], time: String? = nil,
  missing: MissingPolicy = .error
) -> DatasetDefinition {
  DatasetDefinition(
    path: path, pathLocation: spec(2), missing: missing,
    target: TargetDefinition(column: ColumnReference(column: target, location: spec(5)), when: when),
    features: features, time: time.map { ColumnReference(column: $0, location: spec(30)) })
}

/// The `DataError` thrown by `body`, or `nil` if it did not throw.
func dataError<R>(_ body: () throws(DataError) -> R) -> DataError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
