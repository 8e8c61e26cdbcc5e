#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appends to a file another program owns, such as `$GITHUB_STEP_SUMMARY`: only a regular file (or nothing,
/// which is created) is written. A FIFO with no reader would block the write forever and a device swallows or
/// refuses it, so either is refused as `AtomicFile` refuses to replace one; a failed write is an error, never a
/// trap.
public enum AppendFile {
  /// Fails when `path` exists and is not a regular file, so a command can refuse before its work.
  public static func checkAppendable(_ path: String) throws(AtomicFile.Failure) {
    if let other = RegularFile.otherKind(atPath: path) {
      throw AtomicFile.Failure(path: path, reason: "it is \(other), not a regular file; refusing to append to it")
    }
  }

  /// Appends every byte of `bytes` to `path`, creating it when missing; on a failed write the file is cut back to
  /// its earlier length.
  public static func append(_ bytes: [UInt8], to path: String) throws(AtomicFile.Failure) {
    try checkAppendable(path)
    // O_NONBLOCK: a path swapped for a FIFO since the check still opens at once, and is refused below.
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw AtomicFile.Failure(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw AtomicFile.Failure(path: path, reason: "it is not a regular file; refusing to append to it")
    }
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
          failure = count < 0 ? errno : ENOSPC
          return
        }
        offset += count
      }
    }
    if failure != 0 {
      // Leave the file as it was rather than ending in half a summary.
      _ = ftruncate(descriptor, status.st_size)
      throw AtomicFile.Failure(path: path, reason: String(cString: strerror(failure)))
    }
  }
}
