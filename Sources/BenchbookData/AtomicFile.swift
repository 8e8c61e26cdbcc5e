import Foundation

/// Writes files so a reader never sees half of one and a failed run never
/// destroys the previous version: write a temporary sibling, then rename.
public enum AtomicFile {
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): cannot write: \(reason)" }
  }

  public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(Failure) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw Failure(path: path, reason: "cannot create \(directory.path): \(error.localizedDescription)")
    }
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
    guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else {
      throw Failure(path: path, reason: "cannot create \(temporary.path)")
    }
    guard rename(temporary.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw Failure(path: path, reason: reason)
    }
  }

  public static func write(_ text: String, to path: String) throws(Failure) {
    try write(Array(text.utf8), to: path)
  }
}
