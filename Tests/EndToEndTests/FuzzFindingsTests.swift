import Foundation
import Testing

/// Inputs `make fuzz` found (Tests/Fuzz), each run through the binary as a user would meet it: an error at
/// the file, exit status 1, never a signal.
@Suite struct FuzzFindingsTests {
  /// Runs `benchbook` through `sh` with its address space limited to `kilobytes`, so an allocation sized by a
  /// claim in the input, rather than by the input, fails as it would on a machine without overcommit.
  /// Returns the exit status (128 + N for signal N) and standard error.
  func runLimited(_ arguments: [String], kilobytes: Int, in directory: URL) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "ulimit -v \(kilobytes) && exec \"$0\" \"$@\"", BenchbookBinary.path] + arguments
    process.currentDirectoryURL = directory
    let err = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = err
    try process.run()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let status =
      process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return (status, String(decoding: stderr, as: UTF8.self))
  }

  /// 67 bytes of damaged gzip whose trailer claims 2,268,116,065 bytes of content (fuzz-csv). The whole claim
  /// was reserved before inflating, so under a 1 GB address-space limit the run aborted; a gzip file can
  /// hold at most 1,032 bytes per byte, and the claim is now believed only that far.
  @Test func gzipTrailerClaimingGigabytes() throws {
    let scratch = try Scratch()
    let forged = try #require(
      Data(
        base64Encoded: "H4sIAAAAAAACA1XOwQqDZGlhZzAQBNC7XyF7HiGbVG5vc2lzLG1fYSne0g/oKb30FkzAkMYShWVucuLf19CmYbQwhw=="))
    #expect(forged.suffix(4).elementsEqual([0x61, 0xb4, 0x30, 0x87]), "the trailer's size, little-endian")
    #expect(FileManager.default.createFile(atPath: scratch.path("data.csv.gz"), contents: forged))
    let spec = try scratch.write(
      "forged.yaml", "name: forged\ndata: {path: data.csv.gz}\ntarget: diagnosis\nfeatures: [mean_radius]\n")
    let output = try runLimited(
      ["run", spec, "--out", scratch.path("out"), "--quiet"], kilobytes: 1_000_000, in: scratch.url)
    #expect(output.status == 1, "exit status, stderr: \(output.stderr)")
    #expect(output.stderr.contains("data.csv.gz: cannot gunzip: "), "\(output.stderr)")
    #expect(!scratch.exists("out/results.json"))
  }

  /// A time function of a huge finite number (fuzz-expression: `day(-day(t) + a)` with `a` = 1e300 on
  /// line 5). Taking the number apart as seconds converted it to an `Int`, which trapped.
  @Test func timeFunctionOfAHugeNumber() throws {
    let scratch = try Scratch()
    try scratch.write(
      "data.csv",
      "y,a,t\n0,1.5,2013-01-01T10:00:00Z\n1,-2,2013-06-30T23:59:00Z\n0,3,2014-02-28T05:30:00Z\n"
        + "1,1e300,1970-01-01T00:00:00Z\n")
    let spec = try scratch.write(
      "huge.yaml",
      "name: huge\ndata: {path: data.csv}\ntarget: y\nfeatures:\n  - when: \"year(t) - day( - day(t) + a)\"\n"
        + "resampling: {folds: 2}\n")
    let output = try BenchbookBinary.run(["run", spec, "--out", scratch.path("out"), "--quiet"], in: scratch.url)
    #expect(output.status == 1, "exit status, stderr: \(output.stderr)")
    #expect(output.stderr.contains("data.csv:5: "), "\(output.stderr)")
    #expect(output.stderr.contains("is not a time (more than 2^53 seconds from 1970)"), "\(output.stderr)")
    #expect(!scratch.exists("out/results.json"))
  }
}
