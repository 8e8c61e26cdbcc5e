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
    // A probe of half the batch: its pace says the batch is short unless the probe alone takes 10 ms.
    _ = PredictionTiming.throughput(rows, minimumSeconds: 0, probeRows: 5_000) { x in
      fast.append(x.rows)
      return Matrix(rows: x.rows, columns: 2, repeating: 0.5)
    }
    // The probe, the untimed batch and one timed batch (no minimum time to fill).
    #expect(fast == [5_000, 10_000, 10_000])
    // 0.1 ms a row: the probe's pace fits about 0.05 s of rows in the batch. The calls' own durations are kept, since
    // a probe slowed by the machine (tests run side by side) fits fewer rows, and a batch that turns out quicker than
    // `warmBatchSeconds` is then rightly dropped as a warm-up (the next test).
    var slow: [(rows: Int, seconds: Double)] = []
    _ = PredictionTiming.throughput(rows, minimumSeconds: 0.01, batchSeconds: 0.05, probeRows: 10) { x in
      let start = DispatchTime.now().uptimeNanoseconds
      let until = start + UInt64(x.rows) * 100_000
      while DispatchTime.now().uptimeNanoseconds < until {}
      slow.append((x.rows, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
      return Matrix(rows: x.rows, columns: 2, repeating: 0.5)
    }
    #expect(slow.count >= 2 && slow.first?.rows == 10)
    // The probe, then one timed batch of 25 ms or more, past the 0.01 s minimum on its own: no untimed call.
    if slow.count >= 2 && slow[1].seconds >= 0.025 { #expect(slow.count == 2) }
  }

  /// A probe slowed by a cold start (here 50 ms on the first call alone) makes a fast batch look slow; its first
  /// call, quicker than `warmBatchSeconds`, is then not counted, as the warm-up it should have been.
  @Test func aColdProbeStillLeavesTheFirstQuickBatchUntimed() {
    let rows = Matrix((0..<10_000).map { [Double($0)] })
    var sizes: [(rows: Int, seconds: Double)] = []
    _ = PredictionTiming.throughput(rows, minimumSeconds: 0, probeRows: 10) { x in
      let start = DispatchTime.now().uptimeNanoseconds
      if sizes.isEmpty {
        while DispatchTime.now().uptimeNanoseconds < start + 50_000_000 {}
      }
      sizes.append((x.rows, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
      return Matrix(rows: x.rows, columns: 2, repeating: 0.5)
    }
    // The probe's pace (50 ms or more for 10 rows) fits at most 50 rows in the quarter-second batch. Their first call
    // is quick (unless the machine held it up past 15 ms), so it is dropped and a second one is timed.
    #expect(sizes.count >= 2 && sizes.first?.rows == 10 && sizes.dropFirst().allSatisfy { $0.rows <= 50 })
    if sizes.count >= 2 && sizes[1].seconds < 0.015 { #expect(sizes.count == 3) }
  }

  @Test func evenlySpacedRowsSpanTheData() {
    let x = Matrix((0..<10).map { [Double($0)] })
    #expect(PredictionTiming.evenlySpaced(x, count: 4).values == [0, 2, 5, 7])
    #expect(PredictionTiming.evenlySpaced(x, count: 20) == x)
  }
}
