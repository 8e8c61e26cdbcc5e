import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes Benchbook's temporary files and folders when the process is interrupted (SIGINT, SIGTERM),
/// then dies of the same signal, so the shell still sees 130 or 143.
///
/// The signal handler only writes the signal number to a pipe; a thread of its own, blocked on that
/// pipe, does the removal, since removing files from inside a handler could deadlock on a lock the
/// interrupted thread holds. SIGKILL cannot be caught: `StagedFolder` removes what a killed process
/// left at its next start.
///
/// A commit (`StagedFolder.commit`) runs inside `deferringInterrupts`: a signal that arrives during it is
/// handled once it is done. Blocking the signals with `pthread_sigmask` would not be enough, since it masks one
/// thread and the kernel hands a process's signal to any other; what must wait is the removal, which would
/// otherwise delete the staged folder while the commit moves it into place.
public enum TemporaryCleanup {
  private static let paths = Mutex<Set<String>>([])
  private static let installed = Mutex<Bool>(false)
  /// Held through a commit, and by the cleanup thread from its removal until the process dies.
  private static let commitGate = Mutex<Void>(())
  private static let received = Atomic<Int32>(0)

  /// The signal the cleanup thread has received and is about to act on, or 0. For the test-only hook of
  /// `StagedFolder`, which waits for it.
  public static var interruptReceived: Int32 { received.load(ordering: .acquiring) }

  /// Runs `body` with SIGINT and SIGTERM deferred: their cleanup, and the process's death, wait until it returns.
  /// When one arrived meanwhile, the calling thread then waits for the cleanup thread to end the process, so the
  /// command never goes on, or exits 0, after an interrupt.
  public static func deferringInterrupts<E: Error>(_ body: () throws(E) -> Void) throws(E) {
    installHandlers()
    defer {
      while interruptReceived != 0 { pause() }
    }
    try commitGate.withLock { _ throws(E) in try body() }
  }

  /// Removes `path` (file or folder) if the process is interrupted before `unregister(path)`.
  public static func register(_ path: String) {
    installHandlers()
    paths.withLock { _ = $0.insert(path) }
  }

  public static func unregister(_ path: String) {
    paths.withLock { _ = $0.remove(path) }
  }

  private static func installHandlers() {
    let first = installed.withLock { done in
      defer { done = true }
      return !done
    }
    guard first else { return }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return }
    signalPipe = ends[1]
    let reading = ends[0]
    // A parent may have started us with these signals blocked; they must reach the handler, and the
    // thread below (which inherits this thread's mask) must die of them.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGINT)
    sigaddset(&unblock, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    let mask = unblock
    Thread.detachNewThread {
      var received: UInt8 = 0
      while true {
        let got = read(reading, &received, 1)
        if got == 1 { break }
        if got < 0 && errno == EINTR { continue }
        return
      }
      TemporaryCleanup.received.store(Int32(received), ordering: .releasing)
      // Waits for a commit in progress to finish, and keeps any other from starting, until the process is gone.
      commitGate.withLock { _ in
        let pending = paths.withLock { $0 }
        for path in pending { try? FileManager.default.removeItem(atPath: path) }
        signal(Int32(received), SIG_DFL)
        var own = mask
        pthread_sigmask(SIG_UNBLOCK, &own, nil)
        raise(Int32(received))
      }
    }
    for number in [SIGINT, SIGTERM] {
      signal(number) { received in
        var byte = UInt8(truncatingIfNeeded: received)
        _ = write(signalPipe, &byte, 1)
      }
    }
  }
}

/// The write end of the pipe the handler signals through; set once, before the handlers are installed.
nonisolated(unsafe) private var signalPipe: Int32 = -1
