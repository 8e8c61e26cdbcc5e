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
    guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else {
      throw Failure(path: path, reason: "cannot create \(temporary.path)")
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
}
