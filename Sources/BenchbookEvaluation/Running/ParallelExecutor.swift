import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

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
  ///   - weights: what each task holds while it runs (say, the rows it copies); with `budget`, a task
  ///     starts only while the weights in flight leave room for it, or when nothing else runs. A thread
  ///     that finds no room takes the first later task that fits instead, so a heavy task pairs with
  ///     light ones rather than with another heavy one.
  /// - Returns: results in task order, or the error of the lowest-numbered failing task.
  public static func run<T: Sendable, E: Error>(
    count: Int, jobs: Int, order: [Int]? = nil, weights: [Int]? = nil, budget: Int = .max,
    progress: (@Sendable (Int) -> Void)? = nil,
    _ body: @Sendable (Int) throws(E) -> T
  ) throws(E) -> [T] {
    let startOrder = order ?? Array(0..<count)
    precondition(startOrder.count == count, "order must list every task once")
    if let weights {
      precondition(weights.count == count, "one weight per task")
      return try runWithin(budget, weights: weights, count: count, jobs: jobs, order: startOrder, progress, body)
    }
    let slots = Mutex<[Result<T, E>?]>(Array(repeating: nil, count: count))
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    let failed = Atomic<Bool>(false)
    let workers = max(1, min(jobs, count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while !failed.load(ordering: .relaxed) {
        let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard position < count else { break }
        perform(startOrder[position], body, into: slots, failed: failed)
        progress?(done.wrappingAdd(1, ordering: .relaxed).newValue)
      }
    }
    return try collect(slots.withLock { $0 })
  }

  /// `order` with, after the first task of each group of tasks that share work, up to `jobs − 1` of the next
  /// tasks that share nothing and may run early. The group's first task builds what the group shares while the
  /// group's next tasks wait for it (`FoldShared`), so the other threads take those tasks instead of waiting.
  /// - Parameters:
  ///   - sharedGroup: the group whose shared work a task uses (a model's folds), or `nil`.
  ///   - movable: whether a task that shares nothing may start earlier than `order` says.
  public static func staggered(
    _ order: [Int], jobs: Int, sharedGroup: (Int) -> Int?, movable: (Int) -> Bool
  ) -> [Int] {
    var rest = order[...]
    var result: [Int] = []
    result.reserveCapacity(order.count)
    var started = Set<Int>()
    while let task = rest.popFirst() {
      result.append(task)
      guard let group = sharedGroup(task), started.insert(group).inserted else { continue }
      var pulled = 0
      var position = rest.startIndex
      while pulled < jobs - 1, position < rest.endIndex {
        let candidate = rest[position]
        if sharedGroup(candidate) == nil && movable(candidate) {
          result.append(candidate)
          rest.remove(at: position)
          pulled += 1
        } else {
          position += 1
        }
      }
    }
    return result
  }

  /// Runs one task and stores its result in its own slot; a failure stops the others from starting more.
  private static func perform<T: Sendable, E: Error>(
    _ task: Int, _ body: @Sendable (Int) throws(E) -> T, into slots: borrowing Mutex<[Result<T, E>?]>,
    failed: borrowing Atomic<Bool>
  ) {
    let result: Result<T, E>
    do throws(E) {
      result = .success(try body(task))
    } catch {
      result = .failure(error)
      failed.store(true, ordering: .relaxed)
    }
    slots.withLock { $0[task] = result }
  }

  private static func collect<T, E: Error>(_ results: [Result<T, E>?]) throws(E) -> [T] {
    for slot in results {
      if case .failure(let error)? = slot { throw error }
    }
    return results.map {
      guard case .success(let value)? = $0 else { preconditionFailure("a task did not run") }
      return value
    }
  }

  /// What the budgeted pool shares: the tasks not yet started (in start order) and the weight in flight.
  private struct Pool {
    var waiting: [Int]
    var inFlight = 0
    var running = 0
  }

  private static func runWithin<T: Sendable, E: Error>(
    _ budget: Int, weights: [Int], count: Int, jobs: Int, order: [Int], _ progress: (@Sendable (Int) -> Void)?,
    _ body: @Sendable (Int) throws(E) -> T
  ) throws(E) -> [T] {
    let slots = Mutex<[Result<T, E>?]>(Array(repeating: nil, count: count))
    let pool = Mutex(Pool(waiting: order))
    let done = Atomic<Int>(0)
    let failed = Atomic<Bool>(false)
    let workers = max(1, min(jobs, count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      while !failed.load(ordering: .relaxed) {
        // nil: nothing left; -1: nothing fits until a running task ends.
        let picked: Int? = pool.withLock { pool in
          guard !pool.waiting.isEmpty else { return nil }
          let fits = pool.waiting.firstIndex { pool.running == 0 || pool.inFlight + weights[$0] <= budget }
          guard let position = fits else { return -1 }
          let task = pool.waiting.remove(at: position)
          pool.inFlight += weights[task]
          pool.running += 1
          return task
        }
        guard let task = picked else { break }
        if task < 0 {
          // Tasks run for milliseconds to minutes; a short nap costs nothing against them.
          usleep(1_000)
          continue
        }
        perform(task, body, into: slots, failed: failed)
        pool.withLock { pool in
          pool.inFlight -= weights[task]
          pool.running -= 1
        }
        progress?(done.wrappingAdd(1, ordering: .relaxed).newValue)
      }
    }
    return try collect(slots.withLock { $0 })
  }
}
