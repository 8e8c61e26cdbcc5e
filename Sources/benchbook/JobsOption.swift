import ArgumentParser
import Foundation

/// `--jobs N`, shared by every command that fits models.
struct JobsOption: ParsableArguments {
  /// Optional, so help says "all cores" once: ArgumentParser would append a non-optional default's value, this
  /// machine's core count, as a second default.
  @Option(
    name: .customLong("jobs"),
    help: ArgumentHelp(
      "Parallel jobs (default: all cores). Scores and findings do not depend on it; timing passes run "
        + "single-threaded.",
      valueName: "jobs"))
  var requestedJobs: Int?

  /// The jobs to run: `--jobs`, else every core.
  var jobs: Int { requestedJobs ?? ProcessInfo.processInfo.activeProcessorCount }

  func validate() throws {
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
  }
}
