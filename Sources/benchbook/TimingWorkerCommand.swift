import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation

/// The measuring half of `check --against`, run by the checking process once for the
/// base binary and once for the head, so that both sides are measured by their own code.
///
/// Reads requests from standard input, one per line, and answers each with one JSON line:
/// `hello` (the protocol this worker speaks), `scores` (the experiment's scores and sizes
/// as a baseline without timings), `calibrate LABEL…` (repetitions that make each sample
/// of those models last `SideBySideCheck.sampleSeconds`), `counted-round JSON` (one
/// single-threaded timing round with the repetitions given, so both sides do the same work)
/// and `round OFFSET LABEL…` (a round with this worker's own repetitions, as the first
/// workers, which knew no other request but `scores`, were asked). With `--probe` it instead counts each fixed model's fits and predict
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
      let experiment = try SpecParser.read(file: spec)
      _ = try FitRepeat.active(labels: experiment.models.map(\.label))
      if probe {
        let plan = try RunPlan(experiment, jobs: parallel.jobs)
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
    let encoder = JSONCoding.encoder([.sortedKeys, .withoutEscapingSlashes])
    func answer(_ value: some Encodable) throws {
      guard StandardStream.output(Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]) else {
        throw CommandError("timing-worker: cannot write its answer to standard output")
      }
    }
    /// Tuned models are timed at the configuration the run chose, as `baseline` times them.
    func models(_ labels: some Sequence<String>) throws -> (TimingSession, [ModelSpec]) {
      guard let run else { throw CommandError("timing-worker: timing asked for before `scores`") }
      let models = try labels.map { label in
        guard let model = run.spec.models.first(where: { $0.label == label }) else {
          throw CommandError("timing-worker: no model is labelled '\(label)'")
        }
        return model
      }
      let current =
        session
        ?? TimingSession(
          evaluator: FoldEvaluator(dataset: run.dataset, preprocessing: experiment.preprocessing),
          fold: run.plan.folds[0], sampleSeconds: SideBySideCheck.sampleSeconds, clock: .processCPU)
      session = current
      return (current, models)
    }
    while let line = readLine() {
      let words = line.split(separator: " ").map(String.init)
      switch words.first {
      case "hello":
        try answer(SideBySideCheck.Hello())
      case "scores":
        let measured = try RegressionCheck.measureScores(
          experiment, options: .init(jobs: parallel.jobs), command: "benchbook timing-worker \(spec)")
        run = measured.run
        try answer(measured.baseline)
      case "calibrate":
        let (session, models) = try models(words.dropFirst())
        try answer(try session.autorange(models))
      case "round":
        guard words.count >= 2, let offset = Int(words[1]) else {
          throw CommandError("timing-worker: expected `round OFFSET LABEL…`, got `\(line)`")
        }
        let (session, models) = try models(words.dropFirst(2))
        try answer(try session.round(models, offset: offset))
      case "counted-round":
        let request: SideBySideCheck.CountedRound
        do {
          request = try JSONCoding.decoder().decode(
            SideBySideCheck.CountedRound.self, from: Data(line.dropFirst(14).utf8))
        } catch {
          throw CommandError("timing-worker: expected `counted-round JSON`, got `\(line)`: \(error)")
        }
        let (session, models) = try models(request.labels)
        try answer(try session.round(models, offset: request.offset, given: request.repetitions))
      case nil:
        continue
      default:
        throw CommandError("timing-worker: unknown request `\(line)`")
      }
    }
  }
}
