import Foundation

/// One `benchbook timing-worker` child, the base's or the head's, asked for one
/// thing at a time: its scores, then single timing rounds, so that `check --against`
/// can interleave two binaries round by round while each keeps its data loaded.
///
/// Requests are lines on the child's standard input; each answer is one JSON line.
final class TimingWorker {
  let binary: String
  /// "base" or "head", for messages.
  let role: String
  /// Whether it answered `hello`, and so takes `calibrate` and `counted-round`.
  var countsRounds = false
  private let process = Process()
  private let termination: ProcessExit
  private let input: FileHandle
  private let output: FileHandle
  private var buffered = Data()
  private let errors: URL

  init(binary: String, role: String, spec: String, jobs: Int, environment: [String: String]) throws {
    self.binary = binary
    self.role = role
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw SideBySideCheck.Failure(description: "the \(role) binary \(binary) is not an executable file")
    }
    errors = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-\(role)-worker-\(UUID()).err")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["timing-worker", spec, "--jobs", "\(jobs)"]
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = try FileHandle(forWritingTo: errors)
    input = stdin.fileHandleForWriting
    output = stdout.fileHandleForReading
    termination = try ProcessExit.run(process)
  }

  deinit {
    try? input.close()
    if process.isRunning { process.terminate() }
    termination.wait()
    try? FileManager.default.removeItem(at: errors)
  }

  /// Sends `request` and decodes the one-line answer.
  func ask<Answer: Decodable>(_ request: String, as type: Answer.Type) throws -> Answer {
    do {
      try input.write(contentsOf: Data((request + "\n").utf8))
    } catch {
      throw failure()
    }
    guard let line = readLine() else { throw failure() }
    do {
      return try JSONCoding.decoder().decode(Answer.self, from: line)
    } catch {
      throw SideBySideCheck.Failure(
        description: "the \(role) binary \(binary) answered `\(request)` with something unreadable: \(error)")
    }
  }

  private func readLine() -> Data? {
    while true {
      if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
        let line = buffered[buffered.startIndex..<newline]
        buffered = Data(buffered[buffered.index(after: newline)...])
        return Data(line)
      }
      let chunk = output.availableData
      if chunk.isEmpty { return nil }
      buffered.append(chunk)
    }
  }

  /// Why the child stopped answering, from its exit status and standard error.
  private func failure() -> SideBySideCheck.Failure {
    try? input.close()
    termination.wait()
    let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    let tail = stderr.split(separator: "\n").suffix(12).joined(separator: "\n")
    if process.terminationStatus == 64 && stderr.contains("timing-worker") {
      return SideBySideCheck.Failure(
        description: """
          the \(role) binary \(binary) has no `timing-worker` command: it predates `check --against`; \
          compare with a later revision, or with the committed baseline (--baseline)
          """)
    }
    return SideBySideCheck.Failure(
      description: "the \(role) binary \(binary) failed (exit status \(process.terminationStatus)):\n\(tail)")
  }
}
