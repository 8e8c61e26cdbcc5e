import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import BenchbookStudy
import Foundation

struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Re-render report.md and its plots from a results.json alone (study.md from a study.json).",
    discussion: """
      Needs neither the data nor the models. Writes beside the results file unless --out is given. \
      The results are checked first (at least one model, unique labels, finite non-negative scores, \
      as many folds for every model); an error names the key path and nothing is written. Plots an \
      earlier report drew there and this one does not are removed. A file named study.json, as \
      `benchbook study` writes it, gives study.md and its plots instead.
      """
  )

  @Argument(help: "A results.json written by `benchbook run`, or a study.json written by `benchbook study`.")
  var results: String

  @Option(name: .long, help: "Output directory (default: the results file's directory).")
  var out: String?

  func run() throws {
    try CommandLineFailure.reporting {
      let directory = out ?? URL(fileURLWithPath: results).deletingLastPathComponent().path
      if URL(fileURLWithPath: results).lastPathComponent == StudyFile.fileName {
        let study = try StudyFile.read(results)
        StagedFolder.removeAbandoned(beside: directory)
        let written = try StudyPublisher.publish(study, to: directory, includingStudy: false)
        PlotNotice.print(written.plots, quiet: false)
        print("report: \(written.reportPath)")
        return
      }
      let loaded = try ResultsFile.read(results)
      StagedFolder.removeAbandoned(beside: directory)
      let written = try ReportPublisher.publish(loaded, to: directory, includingResults: false)
      PlotNotice.print(written.plots, quiet: false)
      print("report: \(written.reportPath)")
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

/// Tells the user, on standard error, which plots were not drawn and why, even under `--quiet`;
/// gnuplot's warnings about a plot it did draw are notes that `--quiet` keeps back.
enum PlotNotice {
  static func print(_ plots: [PlotOutcome], quiet: Bool) {
    for plot in plots {
      if let reason = plot.skippedBecause {
        if reason == Gnuplot.notInstalled {
          write("note: plot \(plot.fileName) skipped: \(reason)")
        } else {
          write("warning: plot \(plot.fileName) not drawn: \(reason)")
        }
      } else if !quiet {
        for warning in plot.warnings { write("note: plot \(plot.fileName): gnuplot: \(warning)") }
      }
    }
  }

  private static func write(_ line: String) {
    StandardStream.error("benchbook: \(line)\n")
  }
}
