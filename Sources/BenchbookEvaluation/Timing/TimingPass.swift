import BenchbookData
import BenchbookSpec
import Foundation

/// Times fit and predict on one thread, apart from the parallel scoring pass,
/// so neighbours on a 2-core machine do not blur the figures.
///
/// Each round times every model on the same fold, in a rotating order, with the
/// reference workload timed right before each model. A sample repeats a fast
/// fit, or predict, until it lasts about `sampleSeconds`.
public struct TimingPass: Sendable {
  public var rounds: Int
  public var sampleSeconds: Double

  public init(rounds: Int = 7, sampleSeconds: Double = 0.02) {
    precondition(rounds >= 1, "at least one round")
    self.rounds = rounds
    self.sampleSeconds = sampleSeconds
  }

  public func run(_ models: [ModelSpec], evaluator: FoldEvaluator, fold: Fold) throws(ModelFailure) -> TimingSamples {
    let session = TimingSession(evaluator: evaluator, fold: fold, sampleSeconds: sampleSeconds)
    var timings = models.map {
      ModelTiming(
        label: $0.label, fitRepetitions: 0, predictRepetitions: 0, fitSeconds: [], predictSeconds: [],
        referenceSeconds: [])
    }
    for round in 0..<rounds {
      for (index, sample) in try session.round(models, offset: round).enumerated() {
        timings[index].append(sample)
      }
    }
    return TimingSamples(rounds: rounds, fold: fold.index, models: timings)
  }
}

/// The timing pass one round at a time, so a caller can interleave rounds with
/// another process's (`check --against`) as well as run them back to back.
public final class TimingSession {
  /// What a sample's seconds are.
  public enum Clock: Sendable {
    /// Elapsed time, as baselines record it.
    case wall
    /// CPU time of this process, all its threads: time spent waiting for a core that
    /// other work holds does not count, so two binaries timed in turn on a busy machine
    /// are compared on their own work (`check --against`).
    case processCPU
  }

  let evaluator: FoldEvaluator
  let fold: Fold
  let data: FoldEvaluator.FoldData
  let sampleSeconds: Double
  let clock: Clock
  private let reference = ReferenceWorkload()
  private var referenceRepetitions: Int?
  /// Fit and predict repetitions per model label, set by its untimed warm-up.
  private var repetitions: [String: (fit: Int, predict: Int)] = [:]
  private var sink = 0.0

  public init(evaluator: FoldEvaluator, fold: Fold, sampleSeconds: Double = 0.02, clock: Clock = .wall) {
    self.evaluator = evaluator
    self.fold = fold
    self.sampleSeconds = sampleSeconds
    self.clock = clock
    data = evaluator.gather(fold)
  }

  deinit { withExtendedLifetime(sink) {} }

  /// How many times a sample repeats a model's fit and predict batch, and the reference
  /// workload beside it: chosen once, so that two processes timed against each other do the
  /// same work in every round (`check --against`).
  public struct Repetitions: Codable, Sendable, Hashable {
    public var fit: Int
    public var predict: Int
    public var reference: Int

    public init(fit: Int, predict: Int, reference: Int) {
      self.fit = fit
      self.predict = predict
      self.reference = reference
    }
  }

  /// Times every model once, starting from `models[offset % count]`; returns one
  /// sample per model in the order of `models`. A model seen for the first time is
  /// warmed up and calibrated first, untimed, unless `given` sets its repetitions
  /// (then it is only warmed up).
  public func round(_ models: [ModelSpec], offset: Int, given: [String: Repetitions] = [:]) throws(ModelFailure)
    -> [ModelTiming]
  {
    for model in models where repetitions[model.label] == nil {
      if let set = given[model.label] {
        try warmUp(model)
        repetitions[model.label] = (set.fit, set.predict)
      } else {
        try calibrate(model)
      }
    }
    var samples = [ModelTiming?](repeating: nil, count: models.count)
    for step in 0..<models.count {
      let index = (offset + step) % models.count
      let model = models[index]
      let (fitCount, predictCount) = given[model.label].map { ($0.fit, $0.predict) } ?? repetitions[model.label]!
      let referenceCount = given[model.label]?.reference ?? calibrateReference()
      let referenceTime = seconds {
        for repetition in 0..<referenceCount { sink += reference.run(salt: repetition) }
      }
      let fitStart = now()
      var pipeline: FittedPipeline?
      for _ in 0..<fitCount {
        pipeline = try evaluator.fit(model, data.training, fold: fold.index)
      }
      let fitTime = since(fitStart)
      let fitted = pipeline!
      let predictTime = seconds {
        for _ in 0..<predictCount { sink += fitted.predictProbabilities(data.testX).values.first ?? 0 }
      }
      samples[index] = ModelTiming(
        label: model.label, fitRepetitions: fitCount, predictRepetitions: predictCount,
        fitSeconds: [fitTime / Double(fitCount)], predictSeconds: [predictTime / Double(predictCount)],
        referenceSeconds: [referenceTime / Double(referenceCount)])
    }
    return samples.map { $0! }
  }

  /// One untimed fit and predict batch of `model`, then `InstructionProbe.fits` fits in one
  /// `InstructionProbe.measure` call and `InstructionProbe.predicts` batches in another, for an
  /// instruction counter to attribute. The warm-up leaves the allocator holding blocks of the
  /// sizes the counted work asks for, so what malloc costs no longer depends on the heap the
  /// process happened to build before (its environment, its paths); without it a small batch's
  /// count moved from one process to the next.
  public func probe(_ model: ModelSpec) throws(ModelFailure) {
    let warm = try evaluator.fit(model, data.training, fold: fold.index)
    sink += warm.predictProbabilities(data.testX).values.first ?? 0
    var pipeline: FittedPipeline?
    var failure: ModelFailure?
    InstructionProbe.measure {
      do throws(ModelFailure) {
        for _ in 0..<InstructionProbe.fits { pipeline = try evaluator.fit(model, data.training, fold: fold.index) }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    let fitted = pipeline!
    InstructionProbe.measure {
      for _ in 0..<InstructionProbe.predicts { sink += fitted.predictProbabilities(data.testX).values.first ?? 0 }
    }
  }

  /// Repetitions for `models` that make each sample last at least `sampleSeconds`, counted
  /// up from a loop that lasts a fifth of that (as Python's `timeit` autoranges), so that a
  /// fit of microseconds is timed over thousands: one timer read and one scheduler tick no
  /// longer weigh on it, and a cost that varies from fit to fit is averaged within the sample.
  public func autorange(_ models: [ModelSpec]) throws(ModelFailure) -> [String: Repetitions] {
    // The reference is recorded, not judged, beside each model: a fifth of the time will do.
    let reference = autorangeCount(lasting: sampleSeconds / 5) { sink += self.reference.run(salt: $0) }
    var counts: [String: Repetitions] = [:]
    for model in models {
      let pipeline = try evaluator.fit(model, data.training, fold: fold.index)
      var failure: ModelFailure?
      let fit = autorangeCount(lasting: sampleSeconds) { _ in
        do throws(ModelFailure) {
          _ = try evaluator.fit(model, data.training, fold: fold.index)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      let predict = autorangeCount(lasting: sampleSeconds) { _ in
        sink += pipeline.predictProbabilities(data.testX).values.first ?? 0
      }
      counts[model.label] = Repetitions(fit: fit, predict: predict, reference: reference)
    }
    return counts
  }

  /// The repetitions of `body` that last at least `target` seconds, at most `Self.autorangeCap`.
  private func autorangeCount(lasting target: Double, _ body: (Int) -> Void) -> Int {
    var count = 1
    while true {
      let elapsed = seconds { for repetition in 0..<count { body(repetition) } }
      if elapsed >= target / 5 || count >= Self.autorangeCap {
        guard elapsed > 0 else { return Self.autorangeCap }
        return min(Self.autorangeCap, max(1, Int((target / elapsed * Double(count)).rounded(.up))))
      }
      count *= 10
    }
  }

  /// Enough for a sample of a sub-microsecond predict batch to last tens of milliseconds.
  static let autorangeCap = 1_000_000

  private func warmUp(_ model: ModelSpec) throws(ModelFailure) {
    let pipeline = try evaluator.fit(model, data.training, fold: fold.index)
    sink += pipeline.predictProbabilities(data.testX).values.first ?? 0
  }

  private func calibrate(_ model: ModelSpec) throws(ModelFailure) {
    _ = try evaluator.fit(model, data.training, fold: fold.index)
    let fitStart = now()
    let pipeline = try evaluator.fit(model, data.training, fold: fold.index)
    let fitTime = since(fitStart)
    let predictTime = seconds { sink += pipeline.predictProbabilities(data.testX).values.first ?? 0 }
    repetitions[model.label] = (count(forSeconds: fitTime), count(forSeconds: predictTime))
  }

  private func calibrateReference() -> Int {
    if let referenceRepetitions { return referenceRepetitions }
    let count = count(forSeconds: seconds { sink += reference.run() })
    referenceRepetitions = count
    return count
  }

  /// Repetitions of something taking `seconds` that make one sample last about `sampleSeconds`.
  func count(forSeconds seconds: Double) -> Int {
    guard seconds > 0 else { return 1000 }
    return min(1000, max(1, Int((sampleSeconds / seconds).rounded(.up))))
  }

  private func now() -> UInt64 {
    switch clock {
    case .wall:
      return DispatchTime.now().uptimeNanoseconds
    case .processCPU:
      var time = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
      return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
  }

  private func since(_ start: UInt64) -> Double { Double(now() - start) / 1e9 }

  private func seconds(_ body: () -> Void) -> Double {
    let start = now()
    body()
    return since(start)
  }
}
