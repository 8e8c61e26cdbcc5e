import BenchbookEvaluation
import Synchronization
import Testing

/// A weight budget changes which tasks run side by side, never what they return.
@Suite struct ParallelExecutorBudgetTests {
  @Test func weightsInFlightStayWithinTheBudget() {
    let weights = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]
    let inFlight = Atomic<Int>(0)
    let most = Atomic<Int>(0)
    let results = ParallelExecutor.run(count: weights.count, jobs: 2, weights: weights, budget: 11) { task in
      let now = inFlight.wrappingAdd(weights[task], ordering: .relaxed).newValue
      _ = most.max(now, ordering: .relaxed)
      var spin = 0
      for step in 0..<(200_000 * (weights[task] + 1)) { spin &+= step }
      _ = inFlight.wrappingSubtract(weights[task], ordering: .relaxed)
      return task * 3 + (spin == -1 ? 1 : 0)
    }
    #expect(results == weights.indices.map { $0 * 3 })
    #expect(most.load(ordering: .relaxed) <= 11)
  }

  @Test func aTaskHeavierThanTheBudgetStillRunsAlone() throws {
    let results = ParallelExecutor.run(count: 3, jobs: 2, weights: [50, 1, 50], budget: 10) { $0 + 1 }
    #expect(results == [1, 2, 3])
  }

  @Test func theLowestFailingTaskIsReported() {
    struct Failure: Error, Equatable { var task: Int }
    #expect(throws: Failure(task: 2)) {
      try ParallelExecutor.run(count: 4, jobs: 1, weights: [1, 1, 1, 1], budget: 2) { (task: Int) throws(Failure) in
        if task >= 2 { throw Failure(task: task) }
        return task
      }
    }
  }
}
