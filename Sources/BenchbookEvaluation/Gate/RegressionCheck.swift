import BenchbookData
import BenchbookSpec
import Foundation

/// Measures an experiment the way baselines record it, and checks a fresh
/// measurement against a baseline.
public enum RegressionCheck {
  /// A run's scores plus the single-threaded timing pass, as a baseline.
  ///
  /// The leak audit is skipped: a baseline records nothing of it, and `benchbook run` is where it is read.
  public static func measure(
    _ spec: ExperimentSpec, options: ExperimentRunner.Options, command: String
  ) throws -> (run: ExperimentRunner.Run, baseline: Baseline) {
    var (run, baseline) = try measureScores(spec, options: options, command: command)
    let evaluator = FoldEvaluator(dataset: run.dataset, preprocessing: spec.preprocessing)
    let timing = try TimingPass(rounds: spec.regression.rounds).run(
      run.spec.models, evaluator: evaluator, fold: run.plan.folds[0])
    baseline.apply(timing.models)
    baseline.timingRounds = timing.rounds
    if spec.regression.instructions {
      let counts = try InstructionCount.measure(
        binary: InstructionCount.thisBinary, spec: spec.path, environment: ProcessInfo.processInfo.environment)
      for index in baseline.models.indices {
        baseline.models[index].instructions = counts[baseline.models[index].label]
      }
    }
    run.results.command = command
    return (run, baseline)
  }

  /// A run's scores and Core ML sizes as a baseline whose timings are still to be measured.
  public static func measureScores(
    _ spec: ExperimentSpec, options: ExperimentRunner.Options, command: String
  ) throws -> (run: ExperimentRunner.Run, baseline: Baseline) {
    var options = options
    options.audit = false
    let run = try ExperimentRunner.run(spec, options: options)
    let untimed = TimingSamples(rounds: 0, fold: run.plan.folds[0].index, models: [])
    return (run, Baseline(results: run.results, timing: untimed, command: command))
  }

  /// What a check found.
  public struct Outcome: Sendable {
    public var experiment: String
    public var baselinePath: String
    public var baseline: Baseline?
    public var current: Baseline?
    /// Every judged figure and notice, most severe first.
    public var rows: [RegressionRow]
    /// Models whose failing times were measured a second time before they counted.
    public var remeasured: [String]
    /// Why there was nothing to compare with, when so.
    public var problem: String?
    /// Set when base and head were measured side by side (`check --against`).
    public var sideBySide: SideBySideCheck.Record?

    public var failed: Int { rows.filter { $0.verdict == .fail }.count }
    public var warnings: Int { rows.filter { $0.verdict == .warn }.count }
    public var passed: Int { rows.filter { $0.isJudged && $0.verdict != .fail }.count }
    /// No model could be compared at all.
    public var incomparable: Bool { problem != nil || !rows.contains { $0.isJudged } }
  }

  /// Loads a baseline file.
  public static func loadBaseline(_ path: String) throws -> Baseline {
    try ResultsFile.decode(Baseline.self, at: path, kind: "baseline")
  }

  /// Fails, naming the key, when the baseline at `path` is of another experiment or shares no model with `spec`.
  public static func checkMatches(_ baseline: Baseline, at path: String, spec: ExperimentSpec) throws(ResultsFile
    .ReadError)
  {
    guard baseline.experiment == spec.name else {
      throw ResultsFile.ReadError(
        path: path,
        reason: "experiment: the baseline is of \"\(baseline.experiment)\", not of \(spec.path)'s \"\(spec.name)\"")
    }
    let labels = Set(spec.models.map(\.label))
    guard baseline.models.contains(where: { labels.contains($0.label) }) else {
      let named = baseline.models.map(\.label).joined(separator: ", ")
      throw ResultsFile.ReadError(
        path: path,
        reason: "models: none of the baseline's models (\(named.isEmpty ? "none" : named)) is in \(spec.path)")
    }
  }

  public static func encode(_ baseline: Baseline) throws -> [UInt8] {
    try ResultsFile.encodeContract(baseline)
  }

  /// Measures `spec` and compares with the baseline at `baselinePath`.
  ///
  /// A timing that fails is measured once more, for that model alone, before it counts.
  public static func check(
    _ spec: ExperimentSpec, baselinePath: String, options: ExperimentRunner.Options, command: String
  ) throws -> (outcome: Outcome, run: ExperimentRunner.Run?) {
    var outcome = Outcome(
      experiment: spec.name, baselinePath: baselinePath, baseline: nil, current: nil, rows: [], remeasured: [])
    guard FileManager.default.fileExists(atPath: baselinePath) else {
      outcome.problem = "no baseline at \(baselinePath); make one with `benchbook baseline \(spec.path)`"
      return (outcome, nil)
    }
    // A baseline that exists but cannot be read, or is not of this experiment, is an error and never a
    // notice: a truncated or tampered file must not switch the gate off.
    let baseline = try loadBaseline(baselinePath)
    try checkMatches(baseline, at: baselinePath, spec: spec)
    outcome.baseline = baseline
    var (run, current) = try measure(spec, options: options, command: command)
    let judge = RegressionJudge(limits: spec.regression)
    var rows = judge.compare(baseline: baseline, current: current)

    let failingTimes = Set(
      rows.filter { $0.verdict == .fail && [.fitTime, .predictTime].contains($0.metric) }.map(\.model))
    if !failingTimes.isEmpty {
      let models = spec.models.filter { failingTimes.contains($0.label) }
      let evaluator = FoldEvaluator(dataset: run.dataset, preprocessing: spec.preprocessing)
      let again = try TimingPass(rounds: spec.regression.rounds).run(
        models, evaluator: evaluator, fold: run.plan.folds[0])
      for timing in again.models {
        if let index = current.models.firstIndex(where: { $0.label == timing.label }) {
          current.models[index].timing = timing
        }
      }
      rows = judge.compare(baseline: baseline, current: current)
      outcome.remeasured = models.map(\.label)
    }
    outcome.current = current
    outcome.rows = bySeverity(rows)
    run.results.command = command
    return (outcome, run)
  }

  /// Most severe first, in judged order within a severity.
  static func bySeverity(_ rows: [RegressionRow]) -> [RegressionRow] {
    rows.enumerated().sorted { a, b in
      a.element.verdict.severity != b.element.verdict.severity
        ? a.element.verdict.severity < b.element.verdict.severity : a.offset < b.offset
    }.map(\.element)
  }
}
