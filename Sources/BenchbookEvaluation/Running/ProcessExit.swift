import Dispatch
import Foundation

/// Waits for a child process to exit as soon as it does.
///
/// Foundation's `waitUntilExit` on Linux polls its run loop every 50 ms, and a child as quick as
/// `git rev-parse` has not exited at the first poll: each run waited 50 ms for its commit, one after another
/// with the on-device timing. The termination handler is called once the child is reaped, its status set.
public final class ProcessExit: Sendable {
  private let exited = DispatchSemaphore(value: 0)

  /// Watches `process`; call before `process.run()`, since a handler set later may miss the exit.
  public init(of process: Process) {
    process.terminationHandler = { [exited] _ in exited.signal() }
  }

  /// Returns once the process has exited; only after `run()` succeeded.
  public func wait() {
    exited.wait()
  }
}
