import Foundation
import Synchronization

/// "folds done out of total" on standard error, redrawn in place on a terminal
/// and printed at every tenth otherwise, so CI logs stay short.
final class ProgressLine: Sendable {
  private let title: String
  private let isTerminal = isatty(STDERR_FILENO) != 0
  private let lastDecile = Mutex(-1)
  private let finished = Mutex(false)

  init(title: String) { self.title = title }

  func update(done: Int, of total: Int) {
    if isTerminal {
      write("\r\(title): \(done)/\(total) fits done")
    } else {
      let decile = done * 10 / max(1, total)
      let shouldPrint = lastDecile.withLock { last in
        guard decile > last else { return false }
        last = decile
        return true
      }
      if shouldPrint { write("\(title): \(done)/\(total) fits done\n") }
    }
  }

  /// Ends the line; later calls do nothing.
  func finish() {
    let first = finished.withLock { done in
      defer { done = true }
      return !done
    }
    if isTerminal && first { write("\n") }
  }

  private func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
