import ArgumentParser

@main
struct Benchbook: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "benchbook",
    abstract: "Compare classifiers by cross-validated log-loss, reproducibly.",
    version: "0.1.0"
  )
}
