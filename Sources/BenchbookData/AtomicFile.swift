import Foundation

/// Writes files so a reader never sees half of one and a failed run never
/// destroys the previous version: write a temporary sibling, then rename.
public enum AtomicFile {
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): cannot write: \(reason)" }

    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }
  }

  public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(Failure) {
    try checkReplaceable(path)
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw Failure(path: path, reason: "cannot create \(directory.path): \(error.localizedDescription)")
    }
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
    TemporaryCleanup.register(temporary.path)
    defer { TemporaryCleanup.unregister(temporary.path) }
    // Written with `open` and `write`, not `FileManager.createFile`, whose own atomic write leaves a
    // `.dat.nosync*` file beside the target when the process is killed.
    if let reason = writeNew(Array(bytes), to: temporary.path) {
      try? FileManager.default.removeItem(at: temporary)
      throw Failure(path: path, reason: "cannot write \(temporary.path): \(reason)")
    }
    // Renaming replaces whatever the path names; only a regular file (or nothing) may be replaced, never a
    // device node, a FIFO, a link or a directory.
    do {
      try checkReplaceable(path)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
    guard rename(temporary.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw Failure(path: path, reason: reason)
    }
  }

  /// Fails when `path` exists and is not a regular file, so a command can refuse before its work.
  public static func checkReplaceable(_ path: String) throws(Failure) {
    if let other = RegularFile.otherKind(atPath: path, followingLinks: false) {
      throw Failure(path: path, reason: "it is \(other), not a regular file; refusing to replace it")
    }
  }

  public static func write(_ text: String, to path: String) throws(Failure) {
    try write(Array(text.utf8), to: path)
  }

  /// Creates (or truncates) `path` and writes every byte; the reason when that fails.
  private static func writeNew(_ bytes: [UInt8], to path: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o666)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    defer { close(descriptor) }
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
          failure = count < 0 ? errno : ENOSPC
          return
        }
        offset += count
      }
    }
    return failure == 0 ? nil : String(cString: strerror(failure))
  }

  /// Removes what a killed writer left beside `path`: `.NAME.tmp-PID` files of processes that no longer exist,
  /// and `.dat.nosync*` files (Foundation's own atomic writes, which earlier versions used) untouched for an hour.
  /// Commands that write single files (`export`) call it as they start, as `run` removes abandoned staging folders.
  public static func removeAbandoned(beside path: String) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
    let hourAgo = Date().addingTimeInterval(-3600)
    for name in names {
      let full = "\(directory)/\(name)"
      if name.hasPrefix(".dat.nosync") {
        let modified = (try? FileManager.default.attributesOfItem(atPath: full)[.modificationDate]) as? Date
        if let modified, modified < hourAgo, RegularFile.otherKind(atPath: full, followingLinks: false) == nil {
          unlink(full)
        }
        continue
      }
      guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards),
        let pid = pid_t(name[marker.upperBound...]), pid > 0, pid != getpid()
      else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH, RegularFile.otherKind(atPath: full, followingLinks: false) == nil {
        unlink(full)
      }
    }
  }
}

/// `write(2)`, named apart from `AtomicFile.write`.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
