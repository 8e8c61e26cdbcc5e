import ArgumentParser
import BenchbookEvaluation
import BenchbookSpec
import Foundation

/// The measuring half of `check --against`, run by the checking process once for the
/// base binary and once for the head, so that both sides are measured by their own code.
///
/// Reads requests from standard input, one per line, and answers each with one JSON line:
/// `scores` (the experiment's scores and sizes as a baseline without timings) and
/// `round OFFSET LABEL…` (one single-threaded timing round of those models, starting
/// the rotation at OFFSET). With `--probe` it instead counts each fixed model's fits and predict
/// batches inside the instruction probe, for callgrind, and prints the labels.
struct TimingWorkerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "timing-worker",
    abstract: "Measure for `check --against` (internal: spoken to over standard input).",
    shouldDisplay: false
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @OptionGroup var parallel: JobsOption

  @Flag(name: .long, help: "Count each fixed model's fits and predict batches inside the instruction probe, then exit.")
  var probe = false

  func run() throws {
    try CommandLineFailure.reporting {
      let experiment = try SpecParser.parse(file: spec)
      _ = try FitRepeat.active(labels: experiment.models.map(\.label))
      if probe {
        let plan = try RunPlan(experiment)
        let session = TimingSession(evaluator: plan.evaluator, fold: plan.plan.folds[0])
        for model in experiment.models where !model.isTuned {
          try session.probe(model)
          print(model.label)
        }
        return
      }
      try serve(experiment)
    }
  }

  private func serve(_ experiment: ExperimentSpec) throws {
    var run: ExperimentRunner.Run?
    var session: TimingSession?
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func answer(_ value: some Encodable) throws {
      FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
    }
    while let line = readLine() {
      let words = line.split(separator: " ").map(String.init)
      switch words.first {
      case "scores":
        let measured = try RegressionCheck.measureScores(
          experiment, options: .init(jobs: parallel.jobs), command: "benchbook timing-worker \(spec)")
        run = measured.run
        try answer(measured.baseline)
      case "round":
        guard let run else { throw CommandError("timing-worker: `round` before `scores`") }
        guard words.count >= 2, let offset = Int(words[1]) else {
          throw CommandError("timing-worker: expected `round OFFSET LABEL…`, got `\(line)`")
        }
        // Tuned models are timed at the configuration the run chose, as `baseline` times them.
        let models = try words.dropFirst(2).map { label in
          guard let model = run.spec.models.first(where: { $0.label == label }) else {
            throw CommandError("timing-worker: no model is labelled '\(label)'")
          }
          return model
        }
        let current =
          session
          ?? TimingSession(
            evaluator: FoldEvaluator(dataset: run.dataset, preprocessing: experiment.preprocessing),
            fold: run.plan.folds[0],
            clock: .processCPU)
        session = current
        try answer(try current.round(models, offset: offset))
      case nil:
        continue
      default:
        throw CommandError("timing-worker: unknown request `\(line)`")
      }
    }
  }
}
