import BenchbookSpec
import Foundation

/// `check --against`: the base binary and the head binary measured on this machine in
/// the same check, so times are judged on any runner, shared or not.
///
/// Both run as `timing-worker` children. Each scores the experiment (scores and sizes
/// judged exactly as against a committed baseline), then they take single-threaded
/// timing rounds in turn, timed in process CPU seconds, the order alternating (base, head; head, base; …) so neither
/// side always runs first. A time that fails is timed again in fresh rounds of both
/// sides, judged on those alone, before it counts.
public enum SideBySideCheck {
  /// One of the two binaries.
  public struct Side: Sendable {
    public var binary: String
    /// How the report names it: a revision and its commit, or a path.
    public var name: String
    public var commit: String?
    public var environment: [String: String]

    public init(binary: String, name: String, commit: String?, environment: [String: String]) {
      self.binary = binary
      self.name = name
      self.commit = commit
      self.environment = environment
    }
  }

  /// A check that could not be made (a binary missing or failing): an error, never a pass.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// What the report says of a side-by-side check beyond the rows.
  public struct Record: Sendable {
    public var base: Side
    public var head: Side
    public var rounds: Int
    /// Per failing time, its first measurement, before the fresh rounds decided.
    public var firstMeasurements: [String]
    /// `BENCHBOOK_TEST_REPEAT_FIT` as the head ran with it.
    public var testRepeatFit: String?
    /// The reference workload's median seconds, head ÷ base: recorded, not judged.
    public var referenceFactor: Double?
  }

  public static func check(_ spec: ExperimentSpec, base: Side, head: Side, jobs: Int) throws
    -> RegressionCheck.Outcome
  {
    // A worker that dies must be an error here, not a SIGPIPE that ends this process silently.
    signal(SIGPIPE, SIG_IGN)
    var baseSide = base
    baseSide.environment[FitRepeat.variable] = nil
    let workers = (
      base: try start(
        binary: base.binary, role: "base", spec: spec.path, jobs: jobs, environment: baseSide.environment),
      head: try start(binary: head.binary, role: "head", spec: spec.path, jobs: jobs, environment: head.environment)
    )
    var baseline = try workers.base.ask("scores", as: Baseline.self)
    var current = try workers.head.ask("scores", as: Baseline.self)
    let rounds = spec.regression.rounds
    let labels = current.models.map(\.label).filter { baseline.model($0) != nil }
    // One calibration, the base's, sets both sides' repetitions: the same work in every round.
    // A base from before `calibrate` times with its own, as it always did.
    let repetitions =
      workers.base.countsRounds && workers.head.countsRounds
      ? try workers.base.ask("calibrate " + labels.joined(separator: " "), as: [String: TimingSession.Repetitions].self)
      : nil

    let timed = try interleave(workers, labels: labels, rounds: rounds, repetitions: repetitions)
    baseline.apply(timed.base)
    current.apply(timed.head)
    if spec.regression.instructions {
      let counts = (
        base: try InstructionCount.measure(binary: base.binary, spec: spec.path, environment: baseSide.environment),
        head: try InstructionCount.measure(binary: head.binary, spec: spec.path, environment: head.environment)
      )
      for index in baseline.models.indices {
        baseline.models[index].instructions = counts.base[baseline.models[index].label]
      }
      for index in current.models.indices {
        current.models[index].instructions = counts.head[current.models[index].label]
      }
    }

    let judge = RegressionJudge(limits: spec.regression)
    var rows = judge.compare(baseline: baseline, current: current, sideBySide: true)
    let failing = rows.filter { $0.verdict == .fail && [.fitTime, .predictTime].contains($0.metric) }
    var firstMeasurements: [String] = []
    var remeasured: [String] = []
    if !failing.isEmpty {
      remeasured = labels.filter { label in failing.contains { $0.model == label } }
      firstMeasurements = failing.map { row in
        "\(row.model) \(row.metric.rawValue) \(String(format: "%.2f×", row.factor ?? .nan))"
      }
      // Fresh rounds, judged alone: the confirmation must fail on its own evidence.
      let again = try interleave(workers, labels: remeasured, rounds: rounds, repetitions: repetitions)
      baseline.replaceTiming(again.base)
      current.replaceTiming(again.head)
      rows = judge.compare(baseline: baseline, current: current, sideBySide: true)
    }
    var outcome = RegressionCheck.Outcome(
      experiment: spec.name, baselinePath: base.name, baseline: baseline, current: current,
      rows: RegressionCheck.bySeverity(rows), remeasured: remeasured)
    let references = (
      base: baseline.models.flatMap(\.timing.referenceSeconds), head: current.models.flatMap(\.timing.referenceSeconds)
    )
    outcome.sideBySide = Record(
      base: baseSide, head: head, rounds: rounds, firstMeasurements: firstMeasurements,
      testRepeatFit: head.environment[FitRepeat.variable].flatMap { $0.isEmpty ? nil : $0 },
      referenceFactor: references.base.isEmpty || references.head.isEmpty
        ? nil : references.head.median / references.base.median)
    return outcome
  }

  /// How long a sample of one model's fit, or predict batch, lasts at least, in CPU seconds:
  /// long enough that a fit of microseconds is timed over thousands, so one timer read, one
  /// interrupt or a cost that alternates between fits (a planted 1.5×) averages out within it.
  public static let sampleSeconds = 0.05

  /// The worker's answer to `hello`: workers that know it take `calibrate` and `counted-round`.
  public struct Hello: Codable, Sendable {
    public var protocolVersion = 2

    public init() {}

    /// `{"protocolVersion": 2}`, as every revision's worker has written it: a dictionary's keys keep their case
    /// under `JSONCoding`'s snake_case strategy, so binaries of earlier revisions still read it.
    public init(from decoder: any Decoder) throws {
      let fields = try decoder.singleValueContainer().decode([String: Int].self)
      guard let version = fields["protocolVersion"] else {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no protocolVersion"))
      }
      protocolVersion = version
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(["protocolVersion": protocolVersion])
    }
  }

  /// A `counted-round` request: a timing round with repetitions set by the checking process.
  public struct CountedRound: Codable, Sendable {
    public var offset: Int
    public var labels: [String]
    public var repetitions: [String: TimingSession.Repetitions]

    public init(offset: Int, labels: [String], repetitions: [String: TimingSession.Repetitions]) {
      self.offset = offset
      self.labels = labels
      self.repetitions = repetitions
    }
  }

  /// A worker, asked `hello` first; a base from before `hello` fails on it and is started
  /// again to be asked only what it knows.
  static func start(binary: String, role: String, spec: String, jobs: Int, environment: [String: String]) throws
    -> TimingWorker
  {
    let worker = try TimingWorker(binary: binary, role: role, spec: spec, jobs: jobs, environment: environment)
    do {
      _ = try worker.ask("hello", as: Hello.self)
      worker.countsRounds = true
      return worker
    } catch let failure as Failure where failure.description.contains("unknown request `hello`") {
      return try TimingWorker(binary: binary, role: role, spec: spec, jobs: jobs, environment: environment)
    }
  }

  /// `rounds` timing rounds of both workers over `labels`, the order alternating; with
  /// `repetitions`, both sides repeat each model's work as often as those say.
  static func interleave(
    _ workers: (base: TimingWorker, head: TimingWorker), labels: [String], rounds: Int,
    repetitions: [String: TimingSession.Repetitions]? = nil
  ) throws -> (base: [ModelTiming], head: [ModelTiming]) {
    func empty() -> [ModelTiming] {
      labels.map {
        ModelTiming(
          label: $0, fitRepetitions: 0, predictRepetitions: 0, fitSeconds: [], predictSeconds: [],
          referenceSeconds: [])
      }
    }
    var base = empty()
    var head = empty()
    let request = labels.joined(separator: " ")
    for round in 0..<rounds {
      let order = round % 2 == 0 ? [workers.base, workers.head] : [workers.head, workers.base]
      for worker in order {
        let samples: [ModelTiming]
        if let repetitions {
          let counted = CountedRound(offset: round, labels: labels, repetitions: repetitions)
          let json = String(decoding: try JSONCoding.encoder().encode(counted), as: UTF8.self)
          samples = try worker.ask("counted-round " + json, as: [ModelTiming].self)
        } else {
          samples = try worker.ask("round \(round) \(request)", as: [ModelTiming].self)
        }
        guard samples.map(\.label) == labels else {
          throw Failure(description: "the \(worker.role) binary \(worker.binary) timed other models than asked")
        }
        for (index, sample) in samples.enumerated() {
          if worker === workers.base { base[index].append(sample) } else { head[index].append(sample) }
        }
      }
    }
    return (base, head)
  }
}

extension Baseline {
  /// Sets each model's timing, with the check's rounds.
  mutating func apply(_ timings: [ModelTiming]) {
    for timing in timings {
      if let index = models.firstIndex(where: { $0.label == timing.label }) { models[index].timing = timing }
    }
    timingRounds = timings.first?.fitSeconds.count ?? 0
  }

  /// Replaces the timing of the models in `timings` only.
  mutating func replaceTiming(_ timings: [ModelTiming]) {
    for timing in timings {
      if let index = models.firstIndex(where: { $0.label == timing.label }) { models[index].timing = timing }
    }
  }
}
