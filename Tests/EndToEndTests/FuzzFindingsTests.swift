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
}
