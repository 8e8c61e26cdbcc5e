import Dispatch
import Foundation

/// Waits for a child process to exit as soon as it does.
///
/// Foundation's `waitUntilExit` on Linux polls its run loop every 50 ms, and a child as quick as
/// `git rev-parse` has not exited at the first poll: each run would wait a whole poll for its commit, one
/// after another with the on-device timing. The termination handler is called once the child is reaped, its
/// status set.
final class ProcessExit: Sendable {
  private let exited = DispatchSemaphore(value: 0)

  private init() {}

  /// Starts `process`, watched from before it starts (a handler set later may miss the exit); throws what
  /// `run()` throws, and then there is nothing to wait for.
  static func run(_ process: Process) throws -> ProcessExit {
    let watch = ProcessExit()
    process.terminationHandler = { [exited = watch.exited] _ in exited.signal() }
    try process.run()
    return watch
  }

  /// Returns once the process has exited; at once when a wait already has.
  func wait() {
    exited.wait()
    // Passed on, so a later wait (an owner's clean-up after its error path waited) does not block.
    exited.signal()
  }
}
