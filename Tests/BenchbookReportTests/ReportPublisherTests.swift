import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import Foundation
import Testing

/// Results that break the contract are refused before anything is written; good ones land whole.
@Suite struct ReportPublisherTests {
  @Test func aNaNScoreIsAnErrorBeforeAnythingIsWritten() throws {
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var results = try ReportFixture.results()
    results.models[1].brier.mean = .nan
    let out = directory.appendingPathComponent("out").path
    #expect(ResultsValidation.firstProblem(results)?.description == "models[1].brier.mean: is nan, not a finite number")
    #expect(throws: ResultsFile.ReadError.self) {
      try ReportPublisher.publish(results, to: out, includingResults: true, environment: ["PATH": "/nonexistent"])
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test func writesResultsAndReportTogether() throws {
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let out = directory.appendingPathComponent("out").path
    let written = try ReportPublisher.publish(
      try ReportFixture.results(), to: out, includingResults: true, environment: ["PATH": "/nonexistent"])
    #expect(written.resultsPath == out + "/results.json")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["report.md", "results.json"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out"])
  }
}
