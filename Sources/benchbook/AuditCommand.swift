import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookReport
import BenchbookSpec
import Foundation

struct AuditCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "audit",
    abstract: "Run only the leak audit of an experiment and print its findings.",
    discussion: """
      Checks the spec, data and folds for leaks: training on the future (temporal-split, with a \
      forward-chaining shadow evaluation), features known only after the prediction \
      (post-outcome-feature), features too predictive to believe (suspect-leak), features that encode \
      time (time-proxy), test rows copied from training rows (cross-fold-duplicates), scaling fitted \
      outside the training folds (preprocessing-scope) and folds training without a class \
      (class-coverage). The findings are the ones `benchbook run` records under `audit` in results.json.

      Quicker than `run`: no fit on all rows, no report or plots, and the spec's own folds are fitted \
      only when the temporal comparison needs their scores. Writes no file: findings go to standard \
      output (as JSON with --json), progress to standard error.

      Exit status: 0 when no error-level finding stands; 1 on any error (bad spec, bad data, a model \
      that cannot be fitted); 3 when the audit found an error-level finding the spec does not accept \
      (accept one with `audit: {accept: [{check, subject, reason}]}`).
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @OptionGroup var parallel: JobsOption

  @Flag(name: .long, help: "Print the audit as JSON (results.json's `audit` object) instead of text.")
  var json = false

  @Flag(name: .long, help: "Print no progress.")
  var quiet = false

  func run() throws {
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.read(file: spec)
      let progress = quiet ? nil : ProgressLine(title: "\(experiment.name) leak audit")
      var options = LeakAudit.Options(jobs: parallel.jobs)
      if let progress { options.progress = { done, total in progress.update(done: done, of: total) } }
      let (audit, _) = try LeakAudit.run(experiment, options: options)
      progress?.finish()
      if json {
        print(String(decoding: try audit.json(), as: UTF8.self), terminator: "")
      } else {
        print(AuditSummary.render(audit, full: true), terminator: "")
      }
      try AuditExit.check(audit)
    }
  }
}

/// Exit status 3 when an error-level finding stands, with one line on standard error saying which.
enum AuditExit {
  static let status: Int32 = 3

  static func check(_ audit: AuditRecord) throws {
    let standing = audit.standingErrors
    guard !standing.isEmpty else { return }
    let named = standing.map { "\($0.check) [\($0.subject)]" }.joined(separator: ", ")
    StandardStream.error(
      "benchbook: leak audit: \(standing.count) error-level finding\(standing.count == 1 ? "" : "s") not accepted: \(named)\n"
    )
    throw ExitCode(status)
  }
}
