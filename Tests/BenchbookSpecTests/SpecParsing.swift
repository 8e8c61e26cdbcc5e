import BenchbookSpec
import Testing

/// Parsing helpers the spec suites share.
protocol SpecParsing {}

extension SpecParsing {
  func parse(_ yaml: String, path: String = "/specs/exp.yaml") throws -> ExperimentSpec {
    try SpecParser.parse(yaml: yaml, path: path)
  }

  /// Parses and returns the error, failing the test if there is none.
  func specError(_ yaml: String) -> SpecError? {
    do {
      _ = try parse(yaml)
      Issue.record("expected an error")
      return nil
    } catch let error as SpecError {
      return error
    } catch {
      Issue.record("unexpected error type \(error)")
      return nil
    }
  }
}
