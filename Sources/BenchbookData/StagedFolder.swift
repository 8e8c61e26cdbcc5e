import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Outputs that belong together (results.json, report.md, the plots) written into a hidden folder beside
/// their destination, on the same file system, and moved into place only once every one is complete.
///
/// When the destination's parent cannot be written, the hidden folder goes inside the destination
/// instead. A failed command discards the folder; SIGINT and SIGTERM remove it (`TemporaryCleanup`); after a
/// SIGKILL the next `StagedFolder` beside the same destination removes it, knowing it by its name and
/// its dead process id. So the destination holds either the earlier outputs or the new ones.
public final class StagedFolder {
  /// Every staging folder's name starts so: `.benchbook-tmp-<destination>-<pid>-<random>`.
  public static let prefix = ".benchbook-tmp-"

  /// The folder the outputs are meant for.
  public let destination: String
  /// The hidden folder they are written into first.
  public let path: String
  private var finished = false

  /// Creates the staging folder (and the destination's parent), after removing the staging folders of
  /// processes that no longer exist.
  public init(destination: String) throws(AtomicFile.Failure) {
    let target = URL(fileURLWithPath: destination).standardizedFileURL
    var status = stat()
    if stat(target.path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
      let kind = RegularFile.otherKind(atPath: target.path) ?? "a file"
      throw AtomicFile.Failure(path: destination, reason: "it is \(kind), not a folder")
    }
    let parent = target.deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    } catch {
      throw AtomicFile.Failure(path: destination, reason: "cannot create \(parent): \(error.localizedDescription)")
    }
    Self.removeAbandoned(inFolder: parent)
    Self.removeAbandoned(inFolder: target.path)
    let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    let name = "\(Self.prefix)\(target.lastPathComponent)-\(getpid())-\(random)"
    // Beside the destination; inside it when its parent cannot be written (`--out` in a read-only place).
    var made: String?
    var reason = ""
    for (index, candidate) in ["\(parent)/\(name)", "\(target.path)/\(name)"].enumerated() {
      if index == 1 { try? FileManager.default.createDirectory(atPath: target.path, withIntermediateDirectories: true) }
      TemporaryCleanup.register(candidate)
      if mkdir(candidate, 0o755) == 0 {
        made = candidate
        break
      }
      let code = errno
      reason = String(cString: strerror(code))
      TemporaryCleanup.unregister(candidate)
      guard code == EACCES || code == EPERM || code == EROFS else { break }
    }
    guard let made else {
      throw AtomicFile.Failure(path: destination, reason: "cannot create a temporary folder beside it: \(reason)")
    }
    self.destination = destination
    self.path = made
  }

  deinit { discard() }

  /// Where to write the output that will be `destination/name`.
  public func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Moves the staged `names` into the destination in the order given (the one a reader must see
  /// last goes last), after checking that no target is anything but a regular file; `obsolete` files
  /// of the destination (outputs an earlier run wrote and this one did not) are removed just before
  /// the last move. Nothing is moved when a target is blocked.
  public func commit(_ names: [String], removing obsolete: [String] = []) throws(AtomicFile.Failure) {
    defer { discard() }
    do {
      try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
    } catch {
      throw AtomicFile.Failure(path: destination, reason: "cannot create it: \(error.localizedDescription)")
    }
    let targets = names.map { URL(fileURLWithPath: destination).appendingPathComponent($0).path }
    for target in targets { try AtomicFile.checkReplaceable(target) }
    for (index, name) in names.enumerated() {
      if index == names.count - 1 {
        for old in obsolete where !names.contains(old) {
          let target = URL(fileURLWithPath: destination).appendingPathComponent(old).path
          if FileManager.default.fileExists(atPath: target),
            RegularFile.otherKind(atPath: target, followingLinks: false) == nil
          {
            unlink(target)
          }
        }
      }
      guard rename(file(name), targets[index]) == 0 else {
        throw AtomicFile.Failure(path: targets[index], reason: String(cString: strerror(errno)))
      }
    }
  }

  /// Removes the staging folder and everything in it.
  public func discard() {
    guard !finished else { return }
    finished = true
    try? FileManager.default.removeItem(atPath: path)
    TemporaryCleanup.unregister(path)
  }

  /// Removes the staging folders beside (or inside) `destination` whose process is gone (killed before it
  /// could clean up); commands call it as they start, so a killed run's leftovers do not outlive the next run.
  public static func removeAbandoned(beside destination: String) {
    let target = URL(fileURLWithPath: destination).standardizedFileURL
    removeAbandoned(inFolder: target.deletingLastPathComponent().path)
    removeAbandoned(inFolder: target.path)
  }

  static func removeAbandoned(inFolder parent: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
    for name in names where name.hasPrefix(prefix) {
      let parts = name.split(separator: "-")
      guard parts.count >= 3, let pid = pid_t(parts[parts.count - 2]), pid != getpid() else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH {
        try? FileManager.default.removeItem(atPath: "\(parent)/\(name)")
      }
    }
  }
}
