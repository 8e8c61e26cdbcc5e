import Foundation
import Testing

@testable import BenchbookEvaluation

/// `ProcessExit` waits for a child by its termination handler, not by `waitUntilExit`'s 50 ms polls.
@Suite struct ProcessExitTests {
  /// The exit status is set once the wait returns, and a second wait (an owner's clean-up after its error path
  /// waited, as `TimingWorker` does) returns at once instead of blocking on a signal already taken.
  @Test(.timeLimit(.minutes(1))) func waitsForTheExitAndWaitsAgainAtOnce() throws {
    for (command, status) in [("exit 0", Int32(0)), ("exit 3", Int32(3))] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", command]
      let termination = try ProcessExit.run(process)
      termination.wait()
      #expect(!process.isRunning)
      #expect(process.terminationStatus == status)
      termination.wait()
      #expect(process.terminationStatus == status)
    }
  }

  /// A program that cannot start throws from `run` and leaves nothing to wait for.
  @Test func aProgramThatCannotStartThrows() {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/nonexistent/benchbook-no-such-program")
    #expect(throws: (any Error).self) { try ProcessExit.run(process) }
  }
}
