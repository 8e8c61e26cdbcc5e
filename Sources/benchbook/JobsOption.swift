import ArgumentParser
import Foundation

/// `--jobs N`, shared by every command that fits models.
struct JobsOption: ParsableArguments {
  @Option(
    name: .long,
    help:
      "Parallel jobs (default: all cores). Scores and findings do not depend on it; timing passes run single-threaded."
  )
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  func validate() throws {
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
  }
}
