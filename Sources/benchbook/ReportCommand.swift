import ArgumentParser
import BenchbookEvaluation
import BenchbookReport
import Foundation

struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Re-render report.md and its plots from a results.json alone.",
    discussion: "Needs neither the data nor the models. Writes beside the results file unless --out is given."
  )

  @Argument(help: "A results.json written by `benchbook run`.")
  var results: String

  @Option(name: .long, help: "Output directory (default: the results file's directory).")
  var out: String?

  func run() throws {
    try CommandLineFailure.reporting {
      let loaded = try ResultsFile.read(results)
      let directory = out ?? URL(fileURLWithPath: results).deletingLastPathComponent().path
      let (path, plots) = try ReportRenderer.write(loaded, to: directory)
      PlotNotice.print(plots)
      print("report: \(path)")
    }
  }
}

struct IndexCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "index",
    abstract: "Write README.md in a reports folder: every experiment's question, winner and log-loss, linked."
  )

  @Argument(help: "The folder holding one sub-folder per experiment.")
  var reports: String = "reports"

  func run() throws {
    try CommandLineFailure.reporting {
      print("index: \(try ReportIndex.write(reportsDirectory: reports))")
    }
  }
}

/// Tells the user, on standard error, which plots were not drawn and why.
enum PlotNotice {
  static func print(_ plots: [PlotOutcome]) {
    for plot in plots {
      if let reason = plot.skippedBecause {
        FileHandle.standardError.write(Data("benchbook: note: plot \(plot.fileName) skipped: \(reason)\n".utf8))
      }
    }
  }
}
