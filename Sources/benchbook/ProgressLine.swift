import BenchbookData
import Foundation
import Synchronization

/// A progress bar of fits done out of total, with the time left, on standard error: redrawn in
/// place on a terminal, and printed at every tenth otherwise, so CI logs stay short.
final class ProgressLine: Sendable {
  private let title: String
  private let isTerminal = isatty(STDERR_FILENO) != 0
  /// The first update's time and count: fits run in parallel, so the rate is measured from there.
  private let first = Mutex<(nanoseconds: UInt64, done: Int)?>(nil)
  private let lastDecile = Mutex(-1)
  private let finished = Mutex(false)

  init(title: String) { self.title = title }

  func update(done: Int, of total: Int) {
    let now = DispatchTime.now().uptimeNanoseconds
    let start = first.withLock { first in
      if first == nil { first = (now, done) }
      return first!
    }
    let line = Self.line(
      // Another thread may have set `first` after this one read the clock.
      title: title, done: done, total: total, elapsed: Double(now &- min(now, start.nanoseconds)) / 1e9,
      doneInElapsed: done - start.done)
    if isTerminal {
      write("\r\(line)\u{1B}[K")
    } else {
      let decile = done * 10 / max(1, total)
      let shouldPrint = lastDecile.withLock { last in
        guard decile > last else { return false }
        last = decile
        return true
      }
      if shouldPrint { write(line + "\n") }
    }
  }

  /// `flights-delay [########------------] 20/50 fits, 3.0 s, about 4.5 s left`
  static func line(title: String, done: Int, total: Int, elapsed: Double, doneInElapsed: Int) -> String {
    let width = 20
    let filled = total > 0 ? min(width, done * width / total) : 0
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    var text = "\(title) [\(bar)] \(done)/\(total) fits, \(seconds(elapsed))"
    if doneInElapsed > 0 && done < total {
      text += ", about \(seconds(elapsed / Double(doneInElapsed) * Double(total - done))) left"
    }
    return text
  }

  private static func seconds(_ value: Double) -> String {
    value < 10 ? String(format: "%.1f s", value) : String(format: "%.0f s", value)
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
    StandardStream.error(text)
  }
}
