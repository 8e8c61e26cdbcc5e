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
/// its dead process id (also when it is the earlier folder a commit swapped out). So the destination
/// holds either the earlier outputs or the new ones (see `commit` for when the swap is not possible).
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
      // The mode a new folder gets, since this one may become the destination.
      if mkdir(candidate, 0o777) == 0 {
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

  /// Puts the staged `names` in place of the destination's, and removes its `obsolete` files (outputs an
  /// earlier run wrote and this one did not); every other file of the destination stays. Nothing is moved
  /// when a target is anything but a regular file.
  ///
  /// On Linux the two folders trade places in one step, so a kill at any instant leaves the earlier
  /// outputs or the new ones, never a mix: the destination's other regular files are first hard-linked
  /// into the staging folder, then `renameat2(RENAME_EXCHANGE)` swaps the folders (a plain `rename` when
  /// there is no destination yet), and the earlier folder, now under the staging name, is removed (by
  /// the next command when a kill comes first). When the swap cannot keep the destination as it was (it
  /// holds a subfolder, a link or another non-regular file, a file that cannot be linked, or belongs to
  /// another user), when the staging folder had to go inside it, or when the file system or system
  /// refuses the swap, the files move one by one instead, in the order given (the one a reader must see
  /// last goes last), the obsolete ones removed just before the last move: then only a kill between two
  /// of those moves can leave a mix.
  ///
  /// SIGINT and SIGTERM are deferred through the commit (`TemporaryCleanup.deferringInterrupts`), so an interrupt
  /// at any of its steps leaves the complete new outputs, and the process then dies of it.
  public func commit(_ names: [String], removing obsolete: [String] = []) throws(AtomicFile.Failure) {
    try TemporaryCleanup.deferringInterrupts { () throws(AtomicFile.Failure) in
      defer {
        Self.testStep("discard")
        discard()
      }
      Self.testStep("start")
      if swapFolders(names, removing: obsolete) { return }
      try moveOneByOne(names, removing: obsolete)
    }
  }

  /// Test-only: `BENCHBOOK_TEST_SIGNAL_AT_COMMIT_STEP=STEP:INT` (or `:TERM`) sends this process the signal when
  /// the commit reaches STEP (`start`, `chmod`, `linked`, `exchanged`, `discard`), waits until the cleanup thread
  /// has it, then gives that thread a second to act before going on, as a ^C can land at any step. Not for users;
  /// unset in normal use.
  public static let signalStepVariable = "BENCHBOOK_TEST_SIGNAL_AT_COMMIT_STEP"

  private static func testStep(_ step: String) {
    guard let value = getenv(signalStepVariable).map({ String(cString: $0) }), value.hasPrefix(step + ":") else {
      return
    }
    let number = value.hasSuffix(":TERM") ? SIGTERM : SIGINT
    kill(getpid(), number)
    while TemporaryCleanup.interruptReceived == 0 { usleep(1000) }
    sleep(1)
  }

  /// The whole-folder commit; `false` (nothing in the destination changed) when it does not apply.
  private func swapFolders(_ names: [String], removing obsolete: [String]) -> Bool {
    let target = URL(fileURLWithPath: destination).standardizedFileURL.path
    guard URL(fileURLWithPath: path).deletingLastPathComponent().path != target else { return false }
    let ours = Set(names)
    // The swapped-in folder must hold exactly the outputs and what the destination keeps.
    guard let staged = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
    for name in staged where !ours.contains(name) { try? FileManager.default.removeItem(atPath: file(name)) }
    var folder = stat()
    guard lstat(target, &folder) == 0 else {
      return errno == ENOENT && rename(path, target) == 0
    }
    // A link to a folder would be replaced by a folder; one owned by someone else would change owner.
    guard folder.st_mode & S_IFMT == S_IFDIR, folder.st_uid == geteuid() else { return false }
    var own = stat()
    guard stat(path, &own) == 0 else { return false }
    if own.st_gid != folder.st_gid, chown(path, uid_t.max, folder.st_gid) != 0 { return false }
    guard chmod(path, folder.st_mode & 0o7777) == 0 else { return false }
    Self.testStep("chmod")
    var replaced = ours.union(obsolete)
    guard let kept = try? FileManager.default.contentsOfDirectory(atPath: target) else { return false }
    for name in kept {
      var entry = stat()
      guard lstat("\(target)/\(name)", &entry) == 0, entry.st_mode & S_IFMT == S_IFREG else { return false }
      if replaced.contains(name) { continue }
      guard link("\(target)/\(name)", file(name)) == 0 else { return false }
      replaced.insert(name)
    }
    Self.testStep("linked")
    guard Self.exchange(path, target) else { return false }
    Self.testStep("exchanged")
    // A file that reached the destination after it was listed moves on into the new one, never replacing.
    let earlier = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    for name in earlier where !replaced.contains(name) {
      _ = Self.renameat2(file(name), "\(target)/\(name)", flags: Self.noReplace)
    }
    return true
  }

  private static let noReplace: UInt32 = 1  // RENAME_NOREPLACE in <stdio.h>
  private static let exchangeFlag: UInt32 = 2  // RENAME_EXCHANGE in <stdio.h>

  /// Swaps two folders in one step: `false` when it did not happen (the system or file system cannot).
  private static func exchange(_ first: String, _ second: String) -> Bool {
    renameat2(first, second, flags: exchangeFlag)
  }

  /// `renameat2`, looked up at run time because Swift's Glibc module leaves out the GNU-only part of
  /// `<stdio.h>` (and glibc before 2.28 has no such function); `false` without it.
  private static func renameat2(_ from: String, _ to: String, flags: UInt32) -> Bool {
    #if canImport(Glibc)
      typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
      return unsafeBitCast(symbol, to: RenameAt2.self)(AT_FDCWD, from, AT_FDCWD, to, flags) == 0
    #else
      return false
    #endif
  }

  /// The per-file commit, for when the folders cannot be swapped.
  private func moveOneByOne(_ names: [String], removing obsolete: [String]) throws(AtomicFile.Failure) {
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
