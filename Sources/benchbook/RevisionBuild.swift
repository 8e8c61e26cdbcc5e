import BenchbookEvaluation
import Foundation

/// `check --against REV`: REV's `benchbook`, built in a temporary git worktree and kept
/// by commit id under `.build/benchbook-against/`, so a second check against the same
/// commit does not build again.
///
/// Builds share one scratch folder there (dependencies are fetched and compiled once,
/// and the main `.build` is left alone) and take a lock on it in turn. REV's
/// dependencies are pinned to this checkout's `Package.resolved` when REV has none,
/// so both sides use the same versions.
enum RevisionBuild {
  struct Built {
    var binary: String
    var commit: String
    var cached: Bool
  }

  static let folder = ".build/benchbook-against"

  static func binary(for revision: String, log: (String) -> Void) throws -> Built {
    let fail = { (message: String) in CommandError("--against \(revision): \(message)") }
    guard let git = ChildProcess.which("git") else { throw fail("git is not installed") }
    guard !revision.hasPrefix("-") else { throw fail("not a revision") }
    let cwd = FileManager.default.currentDirectoryPath
    let top = try ChildProcess.run(git, ["rev-parse", "--show-toplevel"])
    guard top.status == 0 else { throw fail("\(cwd) is not inside a git repository") }
    let root = top.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let resolved = try ChildProcess.run(git, ["-C", root, "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"])
    guard resolved.status == 0 else { throw fail("no such revision in \(root)") }
    let commit = resolved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let short = String(commit.prefix(12))

    let cache = "\(root)/\(folder)"
    let binary = "\(cache)/\(commit)/benchbook"
    if FileManager.default.isExecutableFile(atPath: binary) {
      return Built(binary: binary, commit: commit, cached: true)
    }
    try FileManager.default.createDirectory(atPath: "\(cache)/\(commit)", withIntermediateDirectories: true)

    // One build at a time: they share the scratch folder and the worktree path.
    let lock = open("\(cache)/lock", O_CREAT | O_RDWR, 0o644)
    guard lock >= 0 else { throw fail("cannot create \(cache)/lock") }
    defer { close(lock) }
    flock(lock, LOCK_EX)
    defer { flock(lock, LOCK_UN) }
    if FileManager.default.isExecutableFile(atPath: binary) {
      return Built(binary: binary, commit: commit, cached: true)
    }

    guard let swift = ChildProcess.which("swift") else {
      throw fail("swift is not installed, so \(short) cannot be built")
    }
    let worktree = "\(cache)/worktree"
    _ = try ChildProcess.run(git, ["-C", root, "worktree", "remove", "--force", worktree])
    try? FileManager.default.removeItem(atPath: worktree)
    _ = try ChildProcess.run(git, ["-C", root, "worktree", "prune"])
    let added = try ChildProcess.run(git, ["-C", root, "worktree", "add", "--detach", "--force", worktree, commit])
    guard added.status == 0 else { throw fail("cannot check out \(short):\n\(added.stderrTail)") }
    defer {
      _ = try? ChildProcess.run(git, ["-C", root, "worktree", "remove", "--force", worktree])
      try? FileManager.default.removeItem(atPath: worktree)
      _ = try? ChildProcess.run(git, ["-C", root, "worktree", "prune"])
    }
    let pins = "\(root)/Package.resolved"
    if !FileManager.default.fileExists(atPath: "\(worktree)/Package.resolved"),
      FileManager.default.fileExists(atPath: pins)
    {
      try? FileManager.default.copyItem(atPath: pins, toPath: "\(worktree)/Package.resolved")
    }
    log("building benchbook at \(short) (\(revision)) for the comparison; it is kept in \(cache)/\(commit)/")
    let scratch = "\(cache)/scratch"
    let built = try ChildProcess.run(
      swift,
      ["build", "-c", "release", "--product", "benchbook", "--package-path", worktree, "--scratch-path", scratch])
    guard built.status == 0 else {
      let output = (built.stderr + built.stdout).split(separator: "\n").filter { $0.contains(": error:") }.suffix(8)
      throw fail(
        "\(short) does not build (swift build exit status \(built.status)):\n"
          + (output.isEmpty ? built.stderrTail : output.joined(separator: "\n")))
    }
    let product = "\(scratch)/release/benchbook"
    guard FileManager.default.isExecutableFile(atPath: product) else {
      throw fail("\(short) built, but has no benchbook executable at \(product)")
    }
    let temporary = "\(binary).tmp-\(getpid())"
    try? FileManager.default.removeItem(atPath: temporary)
    try FileManager.default.copyItem(atPath: product, toPath: temporary)
    guard rename(temporary, binary) == 0 else { throw fail("cannot move the built binary to \(binary)") }
    return Built(binary: binary, commit: commit, cached: false)
  }
}
