import BenchbookData
import Dispatch

/// What a prediction costs on this machine: the time an app waits for one
/// row, and how many rows a batch gets through per second.
///
/// The caller passes its prediction as a closure (for Benchbook's own fitted
/// pipeline, `pipeline.predictProbabilities`), so the same measurement serves
/// any model. Timing runs on the calling thread, one prediction at a time.
public enum PredictionTiming {
  /// `count` rows spread evenly over `x` (all of them when it has fewer),
  /// so a file sorted by month or class does not time one corner of the data.
  public static func evenlySpaced(_ x: Matrix, count: Int) -> Matrix {
    guard x.rows > count, count > 0 else { return x }
    return x.selecting(rows: (0..<count).map { $0 * x.rows / count })
  }

  /// Single-row latency: each prediction gets a one-row matrix, as an app
  /// predicting for the row in front of it does.
  ///
  /// - Parameters:
  ///   - rows: the rows to predict, cycled through until `predictions` are timed.
  ///   - predictions: timed predictions (at least 1,000 gives a p99 from ten slowest ones).
  ///   - warmUp: untimed predictions first, so caches and lazy set-up do not count.
  ///   - budgetSeconds: bounds the timing of a slow model: the warm-up stops after a tenth of it, and the timed
  ///     predictions once it is spent and `minimumPredictions` are taken (a p99 of 100 is their largest but
  ///     one). A model predicting a row in under a millisecond takes all 1,000 within a second.
  public static func singleRowLatency(
    _ rows: Matrix, predictions: Int = 1000, warmUp: Int = 100, budgetSeconds: Double = .infinity,
    minimumPredictions: Int = 100, predict: (Matrix) -> Matrix
  ) -> LatencySummary {
    precondition(rows.rows > 0 && predictions > 0, "nothing to time")
    let single = (0..<rows.rows).map { Matrix(rows: 1, columns: rows.columns, values: rows.row($0)) }
    var sink = 0.0
    let budget = budgetSeconds * 1e9
    let warmStart = DispatchTime.now().uptimeNanoseconds
    for i in 0..<warmUp {
      sink += predict(single[i % single.count]).values.first ?? 0
      if Double(DispatchTime.now().uptimeNanoseconds - warmStart) > budget / 10 { break }
    }
    var durations: [UInt64] = []
    durations.reserveCapacity(predictions)
    var spent: UInt64 = 0
    for i in 0..<predictions {
      let row = single[i % single.count]
      let start = DispatchTime.now().uptimeNanoseconds
      let output = predict(row)
      let duration = DispatchTime.now().uptimeNanoseconds - start
      durations.append(duration)
      sink += output.values.first ?? 0
      spent += duration
      if i + 1 >= minimumPredictions && Double(spent) > budget { break }
    }
    withExtendedLifetime(sink) {}
    return LatencySummary(nanoseconds: durations)
  }

  /// The longest batch `throughput` still predicts once untimed before timing it. Past 20 ms, what a first call
  /// adds (its output's pages, model data the probe left uncached) is lost in the batch: a slow model's throughput
  /// (kNN with many neighbours) is the same, within noise, with the untimed call or without it.
  static let warmBatchSeconds = 0.02

  /// Batch throughput in rows per second: one batch predicted in one call, repeated until at least
  /// `minimumSeconds` have passed (after one untimed call when the batch is short), bounded by time rather than rows.
  ///
  /// The batch is `rows` (Benchbook passes 10,000 rows spread over the data) when a probe of `probeRows` of
  /// them says the whole batch takes at most `batchSeconds`; otherwise the rows that fit in `batchSeconds` at
  /// the probe's pace (at least the probe's), spread the same way. So a fast model is timed on the whole batch,
  /// and a slow one (brute-force neighbours over a large dataset, a few hundred rows a second) on as many rows
  /// as a quarter of a second allows, instead of tens of seconds on rows it has already shown its pace on.
  public static func throughput(
    _ rows: Matrix, minimumSeconds: Double = 0.25, batchSeconds: Double = 0.25, probeRows: Int = 100,
    predict: (Matrix) -> Matrix
  ) -> Double {
    precondition(rows.rows > 0, "nothing to time")
    let probe = evenlySpaced(rows, count: min(max(1, probeRows), rows.rows))
    let probeStart = DispatchTime.now().uptimeNanoseconds
    var sink = predict(probe).values.first ?? 0
    let probeSeconds = Double(DispatchTime.now().uptimeNanoseconds - probeStart) / 1e9
    let fitting = Double(probe.rows) * batchSeconds / max(probeSeconds, 1e-9)
    let batch: Matrix
    if fitting >= Double(rows.rows) {
      batch = rows
    } else {
      batch = evenlySpaced(rows, count: max(probe.rows, Int(fitting)))
    }
    // The untimed call warms what the probe did not touch (the batch's output, the rest of the model's data). A
    // batch the probe says takes `warmBatchSeconds` or more goes straight to the clock: what a first call adds is
    // then a small share of it, and a slow model (the tuned flagship's 125 neighbours) would spend a whole extra
    // batch warming up. The probe was itself a first call, so its pace can be a cold one: a first timed call
    // quicker than `warmBatchSeconds` is taken as the warm-up it should have been, and the clock starts again.
    let expectedBatchSeconds = probeSeconds * Double(batch.rows) / Double(probe.rows)
    let warmedUp = batch.rows == probe.rows || expectedBatchSeconds < warmBatchSeconds
    if batch.rows != probe.rows && warmedUp { sink += predict(batch).values.first ?? 0 }
    var firstCallMayBeCold = !warmedUp
    var predicted = 0
    var start = DispatchTime.now().uptimeNanoseconds
    var elapsed: UInt64 = 0
    while predicted == 0 || Double(elapsed) < minimumSeconds * 1e9 {
      sink += predict(batch).values.first ?? 0
      predicted += batch.rows
      elapsed = DispatchTime.now().uptimeNanoseconds - start
      if firstCallMayBeCold {
        firstCallMayBeCold = false
        if Double(elapsed) < warmBatchSeconds * 1e9 {
          (predicted, elapsed) = (0, 0)
          start = DispatchTime.now().uptimeNanoseconds
        }
      }
    }
    withExtendedLifetime(sink) {}
    return Double(predicted) / (Double(max(elapsed, 1)) / 1e9)
  }
}
