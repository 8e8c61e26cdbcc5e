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
      """,
    version: EnvironmentProbe.benchbookVersion,
    subcommands: [RunCommand.self, AuditCommand.self, ReportCommand.self, IndexCommand.self]
  )
}
