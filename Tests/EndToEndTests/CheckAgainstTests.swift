import Foundation
import Testing

/// `check --against-binary` and `--against REV`, end to end: base and head measured side by side.
///
/// The planted slowdown (`BENCHBOOK_TEST_REPEAT_FIT`) makes the head slower without a second build.
@Suite(.serialized) struct CheckAgainstTests {
  let helper = CheckCommandTests()

  func check(_ scratch: Scratch, spec: String, _ extra: [String], environment: [String: String] = [:])
    throws -> (BenchbookBinary.Output, String)
  {
    let output = try BenchbookBinary.run(
      ["check", spec, "--out", scratch.path("out")] + extra, environment: environment, timeout: 600)
    let report = (try? String(contentsOfFile: scratch.path("out/regression.md"), encoding: .utf8)) ?? ""
    return (output, report)
  }

  /// The judged factor of a row of regression.md (its "change" column).
  func factor(_ report: String, model: String, metric: String) -> Double? {
    guard let line = report.split(separator: "\n").first(where: { $0.contains("| \(model) | \(metric) |") })
    else { return nil }
    let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    return cells.count > 5 ? Double(cells[5].dropLast()) : nil
  }

  @Test func aBinaryAgainstItselfPasses() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch, extra: "")
    let (output, report) = try check(scratch, spec: spec, ["--against-binary", BenchbookBinary.path])
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)\n\(report)")
    #expect(report.contains(" 0 failed"), "\(report)")
    #expect(report.contains("against base `\(BenchbookBinary.path)`"))
    #expect(report.contains("in 7 interleaved single-threaded rounds"))
    #expect(!report.contains("BENCHBOOK_TEST_REPEAT_FIT"))
    let history = try String(contentsOfFile: scratch.path("out/history.jsonl"), encoding: .utf8)
    #expect(history.split(separator: "\n").count == 1)
  }

  @Test func aPlantedThreeTimesSlowerFitFails() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch, extra: "")
    let (output, report) = try check(
      scratch, spec: spec, ["--against-binary", BenchbookBinary.path],
      environment: ["BENCHBOOK_TEST_REPEAT_FIT": "NB:3"])
    #expect(output.status == 2, "\(output.stdout)\(output.stderr)\n\(report)")
    #expect(report.contains("| ❌ fail | NB | fit time ratio |"), "\(report)")
    let measured = factor(report, model: "NB", metric: "fit time ratio") ?? 0
    #expect(measured > 2 && measured < 4.5, "planted 3×, measured \(measured)×")
    #expect(report.contains("BENCHBOOK_TEST_REPEAT_FIT=NB:3 was set"))
    #expect(report.contains("were timed again in 7 fresh interleaved rounds"), "\(report)")
    // Scores do not move: the repeated fits are the same fit.
    #expect(!report.contains("| NB | log-loss |"))
  }

  /// A base built before the workers learnt `hello` (and with it calibrated, counted rounds)
  /// is still compared, with its own repetitions: played here by a wrapper that refuses
  /// `hello` as those workers did.
  @Test func aBaseThatKnowsOnlyRoundsIsStillCompared() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch, models: "[LR, NB]")
    let base = try scratch.write(
      "old-benchbook",
      """
      #!/bin/sh
      IFS= read -r first
      if [ "$first" = hello ]; then
        echo 'Error: timing-worker: unknown request `hello`' >&2
        exit 1
      fi
      { printf '%s\\n' "$first"; cat; } | exec \(BenchbookBinary.path) "$@"

      """)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base)
    let (output, report) = try check(scratch, spec: spec, ["--against-binary", base])
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)\n\(report)")
    #expect(report.hasPrefix("Regression check: 14 passed, 0 failed\n"), "\(report)")
  }

  @Test func aPlantedRepeatIsRecordedInTheResults() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch, models: "[LR, NB]")
    let output = try BenchbookBinary.run(
      ["run", spec, "--out", scratch.path("run"), "--quiet"], environment: ["BENCHBOOK_TEST_REPEAT_FIT": "NB:1.5"])
    #expect(output.status == 0, "\(output.stderr)")
    let results =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: scratch.path("run/results.json")))) as! [String: Any]
    #expect((results["environment"] as! [String: Any])["test_repeat_fit"] as? String == "NB:1.5")
  }

  @Test(arguments: [
    ("NB:x", "N must be a number"), ("XX:2", "no model is labelled 'XX'"), ("NB:0.5", "N must be at least 1"),
  ])
  func aMalformedRepeatIsAnError(value: String, message: String) throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch, models: "[LR, NB]")
    let output = try BenchbookBinary.run(
      ["run", spec, "--out", scratch.path("run"), "--quiet"], environment: ["BENCHBOOK_TEST_REPEAT_FIT": value])
    #expect(output.status == 1)
    #expect(output.stderr.contains("BENCHBOOK_TEST_REPEAT_FIT=\(value): \(message)"), "\(output.stderr)")
  }

  /// Instruction counts are equal for the same binary, and see a planted 1.2× fit that times
  /// under parallel tests could not tell from noise.
  @Test(.enabled(if: GitRepository.onPath("valgrind"), "valgrind is not installed"))
  func instructionCountsCatchAPlantedSlowdown() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(
      scratch, models: "[LR, NB]",
      extra: "regression: {instructions: true, time_ratio: {warn: 1000, fail: 1000, fail_regardless: 1000}}\n")
    let (same, sameReport) = try check(scratch, spec: spec, ["--against-binary", BenchbookBinary.path])
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    #expect(sameReport.hasPrefix("Regression check: 18 passed, 0 failed\n"), "two models × nine figures")
    let (planted, report) = try check(
      scratch, spec: spec, ["--against-binary", BenchbookBinary.path],
      environment: ["BENCHBOOK_TEST_REPEAT_FIT": "NB:1.2"])
    #expect(planted.status == 2, "\(planted.stdout)\(planted.stderr)")
    #expect(report.contains("| ❌ fail | NB | fit instructions |"), "\(report)")
    #expect(!report.contains("| LR | fit instructions |"), "\(report)")
    let line = report.split(separator: "\n").first { $0.contains("| NB | fit instructions |") } ?? ""
    let change = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.dropFirst(5).first ?? ""
    let percent = Double(change.dropFirst().dropLast()) ?? 0
    #expect(abs(percent - 20) < 1, "planted +20%, counted \(change)")

    // A baseline records them.
    let baseline = try BenchbookBinary.run(["baseline", spec, "--out", scratch.path("baseline.json")])
    #expect(baseline.status == 0, "\(baseline.stderr)")
    let file =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: scratch.path("baseline.json")))) as! [String: Any]
    let counts = (file["models"] as! [[String: Any]]).compactMap { $0["instructions"] as? [String: Int] }
    #expect(counts.count == 2 && counts.allSatisfy { ($0["fit"] ?? 0) > 1000 && ($0["predict"] ?? 0) > 100 })
  }

  @Test(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
  func aRevisionThatDoesNotExistIsAnError() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch)
    let repository = try GitRepository(scratch.path("repository"))
    try repository.write("README.md", "one commit\n")
    try repository.commit("one commit")
    let output = try BenchbookBinary.run(
      ["check", spec, "--against", "no-such-revision-here", "--out", scratch.path("out")], in: repository.url)
    #expect(output.status == 1)
    #expect(output.stderr.contains("--against no-such-revision-here: no such revision in "), "\(output.stderr)")
    #expect(!scratch.exists("out/history.jsonl"))
  }

  @Test func theBaseIsNamedOnce() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch)
    let output = try BenchbookBinary.run(["check", spec, "--against", "HEAD", "--baseline", "x.json"])
    #expect(output.status == 64, "\(output.stderr)")
  }

  @Test(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
  func aRevisionThatDoesNotBuildIsAnError() throws {
    let scratch = try Scratch()
    let spec = try helper.irisSpec(scratch, models: "[NB]")
    let repository = try GitRepository(scratch.path("broken"))
    try repository.write(
      "Package.swift",
      """
      // swift-tools-version: 5.9
      import PackageDescription
      let package = Package(name: "Broken", targets: [.executableTarget(name: "benchbook")])
      """)
    try repository.write("Sources/benchbook/main.swift", "let broken: Int = \"not a number\"\n")
    try repository.commit("broken")
    let output = try BenchbookBinary.run(
      ["check", spec, "--against", "HEAD", "--out", scratch.path("out")], in: repository.url, timeout: 600)
    #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
    #expect(output.stderr.contains("--against HEAD: "), "\(output.stderr)")
    #expect(output.stderr.contains("does not build"), "\(output.stderr)")
    #expect(!scratch.exists("out/regression.md"))
  }

  /// The whole path: a git repository made from this working tree, two commits, and
  /// `check --against HEAD~1`, which builds the first commit's benchbook and compares.
  ///
  /// Building a second copy of the package takes minutes, so the repository lives at a fixed
  /// place under `.build/` with fixed commit dates: an unchanged working tree gives the same
  /// commit ids, and the build cached by commit id is reused on the next run (CI, on a fresh
  /// clone, always builds).
  @Test(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
  func againstThePreviousCommitOfARepository() throws {
    let root = BenchbookBinary.packageRoot.appendingPathComponent(".build/e2e-against-repository")
    let repository = try GitRepository.copyOfWorkingTree(at: root)
    let untimed = CheckCommandTests.untimed
    try repository.append("experiments/iris.yaml", untimed)
    try repository.commit("the working tree")
    let first = try repository.head()
    try repository.append("README.md", "\nA second commit.\n")
    try repository.commit("a second commit")
    let second = try repository.head()

    let out = root.appendingPathComponent(".build/e2e-out").path
    let arguments = ["check", "experiments/iris.yaml", "--against", "HEAD~1", "--out", out, "--jobs", "2"]
    let output = try BenchbookBinary.run(arguments, in: repository.url, timeout: 3000)
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    #expect(
      output.stdout.hasPrefix("Regression check: 49 passed, 0 failed"), "seven models × seven figures: \(output.stdout)"
    )
    let report = try String(contentsOfFile: out + "/regression.md", encoding: .utf8)
    #expect(report.contains("against base `HEAD~1 (\(first.prefix(12)))`"), "\(report)")
    #expect(report.contains("base commit `\(first)`"))
    #expect(report.contains("head commit `\(second)`"))
    let cached = root.appendingPathComponent(".build/benchbook-against/\(first)/benchbook").path
    #expect(FileManager.default.isExecutableFile(atPath: cached))
    #expect(
      !FileManager.default.fileExists(atPath: root.appendingPathComponent(".build/benchbook-against/worktree").path))

    // The second check finds the build by commit id.
    let again = try BenchbookBinary.run(arguments, in: repository.url, timeout: 600)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(!again.stderr.contains("building benchbook"), "\(again.stderr)")
  }
}

/// A scratch git repository for the `--against` tests.
struct GitRepository {
  let url: URL

  static let gitAvailable = onPath("git")

  static func onPath(_ program: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
    }
  }

  init(_ path: String) throws {
    url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try git(["init", "-q"])
  }

  /// A fresh repository at `root` holding this working tree's files (tracked and untracked,
  /// not ignored); what `root/.build` holds (the cached base builds) is kept.
  static func copyOfWorkingTree(at root: URL) throws -> GitRepository {
    let files = FileManager.default
    if let entries = try? files.contentsOfDirectory(atPath: root.path) {
      for entry in entries where entry != ".build" { try files.removeItem(at: root.appendingPathComponent(entry)) }
    }
    let repository = try GitRepository(root.path)
    let listing = try Self.run(
      ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], in: BenchbookBinary.packageRoot)
    for path in listing.split(separator: "\0").map(String.init) where !path.isEmpty {
      let source = BenchbookBinary.packageRoot.appendingPathComponent(path)
      guard files.fileExists(atPath: source.path) else { continue }  // deleted but not yet committed
      let target = root.appendingPathComponent(path)
      try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try files.copyItem(at: source, to: target)
    }
    // The same dependency versions as this build, without asking the network.
    let pins = BenchbookBinary.packageRoot.appendingPathComponent("Package.resolved")
    if files.fileExists(atPath: pins.path)
      && !files.fileExists(atPath: root.appendingPathComponent("Package.resolved").path)
    {
      try files.copyItem(at: pins, to: root.appendingPathComponent("Package.resolved"))
    }
    return repository
  }

  func write(_ path: String, _ text: String) throws {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: file, atomically: true, encoding: .utf8)
  }

  func append(_ path: String, _ text: String) throws {
    let old = (try? String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)) ?? ""
    try write(path, old + text)
  }

  /// Commits everything with fixed names and dates, so the same tree gives the same commit id.
  func commit(_ message: String) throws {
    try git(["add", "-A"])
    try git([
      "-c", "user.name=Benchbook tests", "-c", "user.email=tests@benchbook.invalid", "commit", "-q", "-m", message,
    ])
  }

  func head() throws -> String {
    try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @discardableResult
  func git(_ arguments: [String]) throws -> String {
    try Self.run(["git"] + arguments, in: url)
  }

  static func run(_ command: [String], in directory: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    for key in ["GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"] { environment[key] = "2026-01-01T00:00:00Z" }
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(command) failed"])
    }
    return String(decoding: data, as: UTF8.self)
  }
}
