import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SIGKILL at many points of `benchbook run`, write phase included: after every kill the folder holds the
/// earlier outputs or the new ones, never a mix, and the only leftover is the killed process's hidden
/// staging folder, which the next run removes.
@Suite struct KillTests {
  /// Each run writes its number into the spec's description, which lands in results.json and report.md.
  func spec(_ run: Int) -> String {
    HardeningTests.spec(description: "Kill test run \(run)", models: "[NB]")
  }

  /// The run number results.json and report.md carry; they must agree, and every plot must be the report's own.
  func committedRun(_ scratch: Scratch) throws -> Int {
    let data = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/results.json")))
    let results = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let description = try #require(results["description"] as? String)
    let run = try #require(Int(description.replacingOccurrences(of: "Kill test run ", with: "")))
    let report = try String(contentsOfFile: scratch.path("out/report.md"), encoding: .utf8)
    #expect(report.contains(description), "report.md is the report of results.json (run \(run))")
    #expect(!report.contains("Kill test run \(run + 1)") && !report.contains("Kill test run \(run - 1)"))
    let reportDate = try modified(scratch.path("out/report.md"))
    let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path("out"))
    for svg in files where svg.hasSuffix(".svg") {
      #expect(try modified(scratch.path("out/\(svg)")) <= reportDate, "\(svg) is no newer than report.md")
    }
    for linked in ["log-loss-box.svg", "log-loss-folds.svg"] {
      #expect(report.contains("(\(linked))") && files.contains(linked), "\(linked) is linked and present")
    }
    return run
  }

  func modified(_ path: String) throws -> Date {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
  }

  func stagingFolders(_ scratch: Scratch) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: scratch.url.path)) ?? []).filter {
      $0.hasPrefix(".benchbook-tmp-")
    }
  }

  /// Starts a run of spec `number`; with `pause`, it sleeps that long once everything is staged.
  func start(_ scratch: Scratch, pause: Double? = nil, environment extra: [String: String] = [:]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BenchbookBinary.path)
    process.arguments = ["run", scratch.path("small.yaml"), "--quiet", "--out", scratch.path("out"), "--jobs", "1"]
    process.currentDirectoryURL = scratch.url
    var environment = ProcessInfo.processInfo.environment
    if let pause { environment["BENCHBOOK_TEST_PAUSE_BEFORE_COMMIT"] = "\(pause)" }
    environment.merge(extra) { $1 }
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// SIGINT or SIGTERM delivered at each step of the commit (the hook sends it there and lets the cleanup thread
  /// act before going on): the interrupt waits for the commit, so the folder holds the complete new outputs, the
  /// process then dies of the signal, and nothing else is left, neither a staging folder nor a temporary file.
  @Test(arguments: ["start", "chmod", "linked", "exchanged", "discard"], ["INT", "TERM"])
  func anInterruptAtEachCommitStepLeavesTheNewOutputs(step: String, signal: String) throws {
    let scratch = try Scratch()
    try scratch.write("small.yaml", spec(1))
    let first = try start(scratch)
    first.waitUntilExit()
    try #require(first.terminationStatus == 0)
    try scratch.write("small.yaml", spec(2))
    let process = try start(scratch, environment: ["BENCHBOOK_TEST_SIGNAL_AT_COMMIT_STEP": "\(step):\(signal)"])
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "\(step) \(signal): exit \(process.terminationStatus)")
    #expect(process.terminationStatus == (signal == "INT" ? SIGINT : SIGTERM), "\(step) \(signal)")
    #expect(try committedRun(scratch) == 2, "\(step) \(signal): the new outputs")
    #expect(stagingFolders(scratch).isEmpty, "\(step) \(signal): \(stagingFolders(scratch))")
    let hidden = try FileManager.default.contentsOfDirectory(atPath: scratch.path("out")).filter { $0.hasPrefix(".") }
    #expect(hidden.isEmpty, "\(step) \(signal): \(hidden)")
  }

  @Test func killedRunsLeaveEarlierOrNewOutputsNeverAMix() throws {
    let scratch = try Scratch()
    try scratch.write("small.yaml", spec(0))
    // The shortest of three unkilled runs (the first may be slowed by a cold start, and other suites load the
    // machine unevenly), so the spread kills land before the end.
    var duration = Double.infinity
    for _ in 0..<3 {
      let began = Date()
      let unkilled = try start(scratch)
      unkilled.waitUntilExit()
      duration = min(duration, Date().timeIntervalSince(began))
      try #require(unkilled.terminationStatus == 0)
    }
    var committed = try committedRun(scratch)
    #expect(committed == 0)

    // 20 kills spread evenly over the first nine tenths of an unkilled run (a run under less load than the
    // measured ones is shorter), then 4 inside the write phase proper.
    let delays: [Double?] = (1...20).map { Double($0) / 20 * 0.9 * duration } + [nil, nil, nil, nil]
    var killed: [pid_t] = []
    for (index, delay) in delays.enumerated() {
      let number = index + 1
      try scratch.write("small.yaml", spec(number))
      let process = try start(scratch, pause: delay == nil ? 30 : nil)
      let pid = process.processIdentifier
      if let delay {
        Thread.sleep(forTimeInterval: delay)
      } else {
        let deadline = Date().addingTimeInterval(60)
        // Everything staged: the run sleeps before its first move.
        func staged() -> Bool {
          stagingFolders(scratch).contains {
            $0.contains("-\(pid)-") && FileManager.default.fileExists(atPath: scratch.path("\($0)/results.json"))
          }
        }
        while process.isRunning, Date() < deadline, !staged() { Thread.sleep(forTimeInterval: 0.01) }
      }
      kill(pid, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killed.append(pid) }
      let now = try committedRun(scratch)
      #expect(now == committed || now == number, "run \(number): outputs of run \(now)")
      committed = now
      for folder in stagingFolders(scratch) {
        #expect(killed.contains { folder.contains("-\($0)-") }, "\(folder) belongs to a killed run")
      }
      let temporary = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
      #expect(!temporary.contains { $0.contains("benchbook-gnuplot") && $0.contains("\(pid)") })
    }
    #expect(killed.count >= 20, "\(killed.count) of \(delays.count) runs were killed before finishing")

    // The next run removes what the killed ones left, and says nothing under --quiet.
    try scratch.write("small.yaml", spec(99))
    let output = try BenchbookBinary.run(
      ["run", scratch.path("small.yaml"), "--quiet", "--out", scratch.path("out")], in: scratch.url)
    #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
    #expect(try committedRun(scratch) == 99)
    #expect(stagingFolders(scratch).isEmpty)
  }
}
