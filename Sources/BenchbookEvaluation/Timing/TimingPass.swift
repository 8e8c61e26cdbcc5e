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
    let data = evaluator.gather(fold)
    let reference = ReferenceWorkload()
    var sink = 0.0
    let referenceRepetitions = repetitions(forSeconds: seconds { sink += reference.run() })

    // Calibrate: one untimed warm-up, then enough repetitions for fit and for predict samples.
    var timings: [ModelTiming] = []
    for model in models {
      _ = try evaluator.fit(model, data.training, fold: fold.index)
      let fitStart = now()
      let pipeline = try evaluator.fit(model, data.training, fold: fold.index)
      let fitTime = since(fitStart)
      let predictTime = seconds { sink += pipeline.predictProbabilities(data.testX).values.first ?? 0 }
      timings.append(
        ModelTiming(
          label: model.label, fitRepetitions: repetitions(forSeconds: fitTime),
          predictRepetitions: repetitions(forSeconds: predictTime), fitSeconds: [], predictSeconds: [],
          referenceSeconds: []))
    }

    for round in 0..<rounds {
      for offset in 0..<models.count {
        let index = (round + offset) % models.count
        let model = models[index]
        let fitCount = timings[index].fitRepetitions
        let predictCount = timings[index].predictRepetitions
        let referenceTime = seconds {
          for repetition in 0..<referenceRepetitions { sink += reference.run(salt: repetition) }
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
        timings[index].fitSeconds.append(fitTime / Double(fitCount))
        timings[index].predictSeconds.append(predictTime / Double(predictCount))
        timings[index].referenceSeconds.append(referenceTime / Double(referenceRepetitions))
      }
    }
    withExtendedLifetime(sink) {}
    return TimingSamples(rounds: rounds, fold: fold.index, models: timings)
  }

  /// Repetitions of something taking `seconds` that make one sample last about `sampleSeconds`.
  func repetitions(forSeconds seconds: Double) -> Int {
    guard seconds > 0 else { return 1000 }
    return min(1000, max(1, Int((sampleSeconds / seconds).rounded(.up))))
  }

  private func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  private func since(_ start: UInt64) -> Double { Double(now() - start) / 1e9 }

  private func seconds(_ body: () -> Void) -> Double {
    let start = now()
    body()
    return since(start)
  }
}
