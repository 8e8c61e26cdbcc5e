import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Writes to standard error and standard output without trapping: `FileHandle.write` traps when the write
/// fails (a full disk, `/dev/full`, a closed pipe), and a diagnostic that cannot be shown must not turn into a
/// crash. A failed write is remembered, so the command can still end with a status that says so.
public enum StandardStream {
  private static let failures = Atomic<Int>(0)

  /// Whether any write through this type failed.
  public static var anyWriteFailed: Bool { failures.load(ordering: .relaxed) > 0 }

  /// Writes `text` to standard error; false when not all of it could be written. Standard error carries
  /// diagnostics and progress, which are advisory: the caller keeps its own status.
  @discardableResult
  public static func error(_ text: String) -> Bool {
    write(Array(text.utf8), to: STDERR_FILENO)
  }

  /// Writes `bytes` to standard output; false when not all of them could be written.
  @discardableResult
  public static func output(_ bytes: [UInt8]) -> Bool {
    write(bytes, to: STDOUT_FILENO)
  }

  /// Every byte to `descriptor` with `write(2)`, retrying when interrupted; false on any other failure.
  @discardableResult
  public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    let written = bytes.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
    if !written { failures.add(1, ordering: .relaxed) }
    return written
  }

  /// Flushes C's buffered standard output (`print`); false when any of its writes failed.
  public static func flushOutput() -> Bool {
    fflush(stdout) == 0 && ferror(stdout) == 0
  }
}
