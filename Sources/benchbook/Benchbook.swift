import ArgumentParser
import BenchbookEvaluation

@main
struct Benchbook: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "benchbook",
    abstract: "Compare classifiers by cross-validated log-loss, reproducibly.",
    discussion: """
      An experiment is a YAML spec naming a dataset, a target, features, preprocessing,
      a resampling plan and models. `benchbook run SPEC` scores every model on every
      fold and writes reports/<name>/results.json.

      Every run ends with a leak audit; `benchbook audit SPEC` runs it alone. Exit status: 0 on \
      success, 1 on any error, 3 when the audit found an error-level finding the spec does not accept.
      """,
    version: EnvironmentProbe.benchbookVersion,
    subcommands: [RunCommand.self, AuditCommand.self, ReportCommand.self, IndexCommand.self]
  )
}
