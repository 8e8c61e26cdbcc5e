import Dispatch
import Synchronization

/// Runs independent tasks on a fixed number of threads.
///
/// Each result lands in its task's own slot, so the output never depends on
/// which thread ran what or in which order tasks finished.
public enum ParallelExecutor {
  /// - Parameters:
  ///   - count: number of tasks; task `i` is `body(i)`.
  ///   - jobs: threads to use (1 runs everything on the calling thread).
  ///   - order: the order tasks are started in (longest first balances load).
  ///   - progress: called after each task with the number done so far.
  /// - Returns: results in task order, or the error of the lowest-numbered failing task.
  public static func run<T: Sendable, E: Error>(
    count: Int, jobs: Int, order: [Int]? = nil,
    progress: (@Sendable (Int) -> Void)? = nil,
    _ body: @Sendable (Int) throws(E) -> T
  ) throws(E) -> [T] {
    let startOrder = order ?? Array(0..<count)
    precondition(startOrder.count == count, "order must list every task once")
    let slots = Mutex<[Result<T, E>?]>(Array(repeating: nil, count: count))
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    let failed = Atomic<Bool>(false)
    let workers = max(1, min(jobs, count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while !failed.load(ordering: .relaxed) {
        let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard position < count else { break }
        let task = startOrder[position]
        let result: Result<T, E>
        do throws(E) {
          result = .success(try body(task))
        } catch {
          result = .failure(error)
          failed.store(true, ordering: .relaxed)
        }
        slots.withLock { $0[task] = result }
        let finished = done.wrappingAdd(1, ordering: .relaxed).newValue
        progress?(finished)
      }
    }
    let results = slots.withLock { $0 }
    for slot in results {
      if case .failure(let error)? = slot { throw error }
    }
    return results.map {
      guard case .success(let value)? = $0 else { preconditionFailure("a task did not run") }
      return value
    }
  }
}
