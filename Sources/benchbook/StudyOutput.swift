import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import BenchbookStudy
import Foundation

/// What `study` and a study's `merge` share: each experiment's report as `run` writes it, then the study's
/// analysis and report, a summary, and exit status 3 when an experiment's leak audit leaves an error standing.
enum StudyOutput {
  /// The command recorded in an experiment's results: the one that reproduces them alone.
  static func experimentCommand(_ experiment: StudySpec.Experiment, folder: String) -> String {
    "benchbook run \(experiment.path) --out \(folder)"
  }

  static func studyCommand(_ spec: String, out: String?) -> String {
    "benchbook study \(spec)" + (out.map { " --out \($0)" } ?? "")
  }

  static func publish(_ results: ExperimentResults, to folder: String, quiet: Bool) throws {
    let written = try ReportPublisher.publish(results, to: folder, includingResults: true)
    PlotNotice.print(written.plots, quiet: quiet)
  }

  static func finish(
    _ study: StudySpec, results: [ExperimentResults], destination: String, command: String, jobs: Int, quiet: Bool
  ) throws {
    let sha = SHA256.hexDigest(try DataFile.storedBytes(atPath: study.path))
    let environment = EnvironmentProbe.record(
      jobs: jobs, repositoryDirectory: URL(fileURLWithPath: study.path).deletingLastPathComponent().path)
    let analysed = try StudyAnalysis.analyse(
      study, results: results, studySha256: sha, command: command, environment: environment)
    let written = try StudyPublisher.publish(analysed, to: destination)
    PlotNotice.print(written.plots, quiet: quiet)
    if !quiet {
      print(summary(analysed), terminator: "")
      print("study: \(written.studyPath)")
      print("report: \(written.reportPath)")
    }
    let flagged = zip(study.experiments, results).filter { !($1.audit?.standingErrors.isEmpty ?? true) }
    if !flagged.isEmpty {
      let names = flagged.map {
        "\($0.0.spec.name) (\($0.1.audit!.standingErrors.map { "\($0.check) [\($0.subject)]" }.joined(separator: ", ")))"
      }
      StandardStream.error(
        "benchbook: leak audit: error-level findings not accepted in \(names.joined(separator: "; "))\n")
      throw ExitCode(AuditExit.status)
    }
  }

  /// Models by mean rank, and the Friedman test's verdict.
  static func summary(_ study: StudyResults) -> String {
    let ranked = study.models.sorted { (study.meanRanks[$0] ?? 0, $0) < (study.meanRanks[$1] ?? 0, $1) }
    var text = "\(study.study): \(study.datasets.count) datasets, \(study.models.count) models\n"
    for model in ranked {
      text += "  \(model.padding(toLength: max(8, model.count), withPad: " ", startingAt: 0))"
      text += " mean rank \(String(format: "%.2f", study.meanRanks[model] ?? 0))\n"
    }
    text += "Friedman: chi2 = \(String(format: "%.3f", study.friedman.statistic)), "
    text += "p = \(String(format: "%.3g", study.friedman.pValue)); "
    text += "Nemenyi CD = \(String(format: "%.3f", study.nemenyi.criticalDifference))\n"
    return text
  }

  static func note(_ line: String) {
    StandardStream.error("\(line)\n")
  }
}
