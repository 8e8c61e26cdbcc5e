import Foundation
import Testing

/// Hostile input, round 2 (issue 62): failed writes, tampered results and shard files, huge sizes and counts.
/// Each case must end in a located error and a non-zero status, never a trap, a hang or a blow-up.
@Suite struct HostileInputTests {
  /// Long enough for a correct refusal; a regression that hangs is killed (status 9) and fails.
  static let timeout = 120.0

  /// Runs the binary with its standard streams redirected by the shell (`2>/dev/full`), so a write to them fails.
  func runRedirected(_ arguments: [String], redirect: String, in scratch: Scratch) throws -> Int32 {
    let quoted = ([BenchbookBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec \(quoted) \(redirect)"]
    process.currentDirectoryURL = scratch.url
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
    return process.terminationStatus
  }

  @Test func anErrorWhenStandardErrorIsFullExitsOne() throws {
    let scratch = try Scratch()
    let status = try runRedirected(["run", "missing.yaml"], redirect: "2>/dev/full", in: scratch)
    #expect(status == 1)
  }

  @Test func outputThatCannotBeWrittenExitsOne() throws {
    let scratch = try Scratch()
    #expect(try runRedirected(["models"], redirect: ">/dev/full", in: scratch) == 1)
    #expect(try runRedirected(["models"], redirect: ">/dev/full 2>/dev/full", in: scratch) == 1)
  }
}
