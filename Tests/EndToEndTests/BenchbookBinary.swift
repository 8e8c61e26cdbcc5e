import Foundation

/// Runs the built `benchbook` binary, as a user would.
///
/// `make test` builds it in release mode and passes its path in
/// `BENCHBOOK_BIN`; without that, the package's own build folders are tried.
struct BenchbookBinary {
  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let path: String = {
    if let path = ProcessInfo.processInfo.environment["BENCHBOOK_BIN"], !path.isEmpty { return path }
    for configuration in ["release", "debug"] {
      let candidate = packageRoot.appendingPathComponent(".build/\(configuration)/benchbook").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return packageRoot.appendingPathComponent(".build/release/benchbook").path
  }()

  /// - Parameters:
  ///   - environment: variables to add to (or override in) this process's environment.
  ///   - timeout: seconds after which the process is killed, so a hang fails the test (status 9) instead of
  ///     stalling the suite.
  static func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
    timeout: Double? = nil
  ) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.currentDirectoryURL = directory ?? packageRoot
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    nonisolated(unsafe) let child = process
    let watchdog = DispatchWorkItem {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
    }
    if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog) }
    defer { watchdog.cancel() }
    // Read both pipes before waiting, so a chatty child cannot block on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var stdoutData = Data()
    nonisolated(unsafe) var stderrData = Data()
    DispatchQueue.global().async(group: group) { stdoutData = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { stderrData = err.fileHandleForReading.readDataToEndOfFile() }
    group.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self))
  }
}

/// A scratch folder for one test's specs, data and outputs, removed afterwards.
final class Scratch {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  /// A shipped data file's absolute path.
  static func shippedData(_ name: String) -> String {
    BenchbookBinary.packageRoot.appendingPathComponent("experiments/data/\(name)").path
  }
}
