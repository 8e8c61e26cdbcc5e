import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation

struct BaselineCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "baseline",
    abstract: "Measure an experiment and write the baseline that `benchbook check` compares with.",
    discussion: """
      Runs the experiment, then a single-threaded timing pass, and writes a readable JSON file to \
      commit and review: per model the per-fold scores, every timing sample, and the hashes that \
      decide comparability. Default file: baselines/<name>.json beside the spec.
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "Where to write the baseline (default: baselines/<name>.json beside the spec).")
  var out: String?

  @OptionGroup var parallel: JobsOption

  func run() throws {
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.read(file: spec)
      let path = out ?? BaselineLocation.defaultPath(for: experiment)
      let (_, baseline) = try RegressionCheck.measure(
        experiment, options: .init(jobs: parallel.jobs),
        command: "benchbook baseline \(spec)" + (out.map { " --out \($0)" } ?? ""))
      try AtomicFile.write(try RegressionCheck.encode(baseline), to: path)
      for model in baseline.models {
        let logLoss = model.logLoss.mean.map { String(format: "%.6f", $0) } ?? "–"
        print(
          "\(model.label): log-loss \(logLoss), fit \(String(format: "%.3g", model.timing.fitRatios.median))×ref, "
            + "predict \(String(format: "%.3g", model.timing.predictRatios.median))×ref")
      }
      print("baseline: \(path)")
    }
  }
}

enum BaselineLocation {
  /// `baselines/<name>.json` in the spec's folder.
  static func defaultPath(for spec: ExperimentSpec) -> String {
    // Kept as relative as the spec path given, so reports name it the way the user did.
    let prefix = spec.path.lastIndex(of: "/").map { String(spec.path[...$0]) } ?? ""
    return "\(prefix)baselines/\(spec.name).json"
  }
}
