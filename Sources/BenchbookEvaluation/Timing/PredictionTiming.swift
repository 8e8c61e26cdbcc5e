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
  public static func singleRowLatency(
    _ rows: Matrix, predictions: Int = 1000, warmUp: Int = 100, predict: (Matrix) -> Matrix
  ) -> LatencySummary {
    precondition(rows.rows > 0 && predictions > 0, "nothing to time")
    let single = (0..<rows.rows).map { Matrix(rows: 1, columns: rows.columns, values: rows.row($0)) }
    var sink = 0.0
    for i in 0..<warmUp { sink += predict(single[i % single.count]).values.first ?? 0 }
    var durations = [UInt64](repeating: 0, count: predictions)
    for i in 0..<predictions {
      let row = single[i % single.count]
      let start = DispatchTime.now().uptimeNanoseconds
      let output = predict(row)
      durations[i] = DispatchTime.now().uptimeNanoseconds - start
      sink += output.values.first ?? 0
    }
    withExtendedLifetime(sink) {}
    return LatencySummary(nanoseconds: durations)
  }

  /// Batch throughput in rows per second: `rows` predicted in one call,
  /// repeated until at least `minimumSeconds` have passed (after one untimed call).
  public static func throughput(_ rows: Matrix, minimumSeconds: Double = 0.25, predict: (Matrix) -> Matrix) -> Double {
    precondition(rows.rows > 0, "nothing to time")
    var sink = predict(rows).values.first ?? 0
    var predicted = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed: UInt64 = 0
    repeat {
      sink += predict(rows).values.first ?? 0
      predicted += rows.rows
      elapsed = DispatchTime.now().uptimeNanoseconds - start
    } while Double(elapsed) < minimumSeconds * 1e9
    withExtendedLifetime(sink) {}
    return Double(predicted) / (Double(max(elapsed, 1)) / 1e9)
  }
}
