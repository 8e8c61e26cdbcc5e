import BenchbookData
import BenchbookEvaluation
import Dispatch
import Testing

/// The measurement primitives' arithmetic and protocol (never their speed).
@Suite struct PredictionTimingTests {
  @Test func nearestRankPercentiles() {
    let summary = LatencySummary(nanoseconds: (1...1000).reversed().map { UInt64($0) * 1000 })
    #expect(summary.p50Microseconds == 500)
    #expect(summary.p99Microseconds == 990)
    #expect(summary.predictions == 1000)
    let one = LatencySummary(nanoseconds: [2500])
    #expect(one.p50Microseconds == 2.5 && one.p99Microseconds == 2.5)
    let small = LatencySummary(nanoseconds: [1000, 3000, 2000])
    #expect(small.p50Microseconds == 2 && small.p99Microseconds == 3)
  }

  @Test func singleRowPredictionsCycleThroughTheRowsAfterAWarmUp() {
    let rows = Matrix((0..<7).map { [Double($0), -Double($0)] })
    var seen: [Double] = []
    let summary = PredictionTiming.singleRowLatency(rows, predictions: 1000, warmUp: 30) { x in
      #expect(x.rows == 1 && x.columns == 2)
      seen.append(x[0, 0])
      return Matrix(rows: 1, columns: 2, values: [0.5, 0.5])
    }
    #expect(summary.predictions == 1000)
    #expect(seen.count == 1030)
    #expect(seen.suffix(1000).enumerated().allSatisfy { $0.element == Double($0.offset % 7) })
    #expect(summary.p50Microseconds <= summary.p99Microseconds)
  }

  @Test func throughputPredictsWholeBatches() {
    let rows = Matrix(rows: 50, columns: 3, repeating: 1)
    var calls = 0
    let perSecond = PredictionTiming.throughput(rows, minimumSeconds: 0.01) { x in
      #expect(x.rows == 50)
      calls += 1
      return Matrix(rows: x.rows, columns: 2, repeating: 0.5)
    }
    #expect(calls >= 2)
    #expect(perSecond > 0 && perSecond.isFinite)
  }

  /// A model too slow for the whole batch within `batchSeconds` is timed on the rows a probe says fit, spread
  /// over the batch; a slow single-row model stops after the budget, with at least the minimum predictions.
  @Test func slowModelsAreTimedWithinTheirBudget() {
    let rows = Matrix((0..<10_000).map { [Double($0)] })
    var sizes: [Int] = []
    let perSecond = PredictionTiming.throughput(rows, minimumSeconds: 0.01, batchSeconds: 0.02, probeRows: 10) { x in
      sizes.append(x.rows)
      let until = DispatchTime.now().uptimeNanoseconds + UInt64(x.rows) * 100_000  // 0.1 ms a row
      while DispatchTime.now().uptimeNanoseconds < until {}
      return Matrix(rows: x.rows, columns: 2, repeating: 0.5)
    }
    #expect(sizes.first == 10)
    // At 0.1 ms a row or more, 0.02 s holds at most 200 rows, far from 10,000.
    #expect(sizes.count >= 2 && sizes.dropFirst().allSatisfy { $0 >= 10 && $0 <= 200 })
    #expect(perSecond > 0 && perSecond <= 10_000)
    var calls = 0
    let summary = PredictionTiming.singleRowLatency(
      rows, predictions: 1000, warmUp: 100, budgetSeconds: 0.02, minimumPredictions: 50
    ) { x in
      calls += 1
      let until = DispatchTime.now().uptimeNanoseconds + 1_000_000  // 1 ms
      while DispatchTime.now().uptimeNanoseconds < until {}
      return Matrix(rows: 1, columns: 2, repeating: 0.5)
    }
    #expect(summary.predictions == 50)
    #expect(calls <= 50 + 3)
  }

  /// The batch is predicted once untimed before it is timed only while the probe says it is short
  /// (`warmBatchSeconds`): a slow model's batch goes straight to the clock.
  @Test func onlyAShortBatchIsWarmedUp() {
    let rows = Matrix((0..<10_000).map { [Double($0)] })
    var fast: [Int] = []
    _ = PredictionTiming.throughput(rows, minimumSeconds: 0, probeRows: 10) { x in
      fast.append(x.rows)
      return Matrix(rows: x.rows, columns: 2, repeating: 0.5)
    }
    // The probe, the untimed batch and one timed batch (no minimum time to fill).
    #expect(fast == [10, 10_000, 10_000])
    var slow: [Int] = []
    _ = PredictionTiming.throughput(rows, minimumSeconds: 0.01, batchSeconds: 0.05, probeRows: 10) { x in
      slow.append(x.rows)
      let until = DispatchTime.now().uptimeNanoseconds + UInt64(x.rows) * 100_000  // 0.1 ms a row
      while DispatchTime.now().uptimeNanoseconds < until {}
      return Matrix(rows: x.rows, columns: 2, repeating: 0.5)
    }
    // The probe, then one timed batch of about 0.05 s, past the 0.01 s minimum on its own.
    #expect(slow.count == 2 && slow.first == 10)
  }

  @Test func evenlySpacedRowsSpanTheData() {
    let x = Matrix((0..<10).map { [Double($0)] })
    #expect(PredictionTiming.evenlySpaced(x, count: 4).values == [0, 2, 5, 7])
    #expect(PredictionTiming.evenlySpaced(x, count: 20) == x)
  }
}
