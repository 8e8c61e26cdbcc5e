import Foundation
import Testing

@Suite struct ReportCommandTests {
  static let timingPlots: Set<String> = ["timing.svg", "trade-off.svg"]

  /// `benchbook report` needs only results.json, and gives back the same report and plots.
  @Test func reRendersIdenticallyFromResultsAlone() throws {
    let scratch = try Scratch()
    let run = try BenchbookBinary.run(["run", "experiments/iris.yaml", "--quiet", "--out", scratch.path("run")])
    #expect(run.status == 0, "\(run.stderr)")
    try FileManager.default.createDirectory(atPath: scratch.path("copy"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: scratch.path("run/results.json"), toPath: scratch.path("copy/results.json"))
    let report = try BenchbookBinary.run(["report", scratch.path("copy/results.json")], in: scratch.url)
    #expect(report.status == 0, "\(report.stderr)")
    for file in ["report.md", "log-loss-box.svg", "log-loss-folds.svg", "timing.svg", "trade-off.svg"] {
      let original = try Data(contentsOf: URL(fileURLWithPath: scratch.path("run/\(file)")))
      let rendered = try Data(contentsOf: URL(fileURLWithPath: scratch.path("copy/\(file)")))
      #expect(original == rendered, "\(file) re-renders identically")
    }
  }

  /// Running the same spec twice changes only timing figures: the timing table and the two timing plots.
  @Test func rerunsDifferOnlyInTimings() throws {
    let scratch = try Scratch()
    for out in ["a", "b"] {
      let run = try BenchbookBinary.run([
        "run", "experiments/breast-cancer.yaml", "--quiet", "--out", scratch.path("x"),
      ])
      #expect(run.status == 0, "\(run.stderr)")
      try FileManager.default.moveItem(atPath: scratch.path("x"), toPath: scratch.path(out))
    }
    let a = try String(contentsOfFile: scratch.path("a/report.md"), encoding: .utf8)
    let b = try String(contentsOfFile: scratch.path("b/report.md"), encoding: .utf8)
    let timing = { (text: String) -> String in
      guard let start = text.range(of: "### Timing"), let end = text.range(of: "## Is the winner") else { return text }
      return String(text[..<start.lowerBound] + text[end.lowerBound...])
    }
    #expect(timing(a) == timing(b), "outside the timing table, the reports are identical")
    for plot in ["log-loss-box.svg", "log-loss-folds.svg"] {
      let first = try Data(contentsOf: URL(fileURLWithPath: scratch.path("a/\(plot)")))
      let second = try Data(contentsOf: URL(fileURLWithPath: scratch.path("b/\(plot)")))
      #expect(first == second, "\(plot) is reproducible")
    }
  }

  @Test func missingResultsFileIsAnError() throws {
    let output = try BenchbookBinary.run(["report", "/nonexistent/results.json"])
    #expect(output.status == 1)
    #expect(output.stderr.contains("/nonexistent/results.json: no such file"))
  }

  @Test func runWithoutGnuplotStillWritesTheReport() throws {
    let scratch = try Scratch()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BenchbookBinary.path)
    process.arguments = ["run", "experiments/iris.yaml", "--quiet", "--out", scratch.path("out")]
    process.currentDirectoryURL = BenchbookBinary.packageRoot
    process.environment = ["PATH": "/nonexistent"]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(stderr)")
    #expect(stderr.contains("skipped: gnuplot is not installed"))
    let report = try String(contentsOfFile: scratch.path("out/report.md"), encoding: .utf8)
    #expect(report.contains("Plots not drawn:"))
    #expect(!scratch.exists("out/log-loss-box.svg"))
  }
}
