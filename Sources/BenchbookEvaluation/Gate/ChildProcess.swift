import Foundation

/// Runs a program to completion and keeps what it printed: git, swift build and valgrind for the gate.
public enum ChildProcess {
  public struct Output: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// The last lines of standard error, for a message.
    public var stderrTail: String {
      stderr.split(separator: "\n").suffix(12).joined(separator: "\n")
    }
  }

  /// - Parameter environment: the whole environment of the child (default: this process's).
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil
  ) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let termination = try ProcessExit.run(process)
    // Read both pipes before waiting, so a chatty child cannot block on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var stdoutData = Data()
    nonisolated(unsafe) var stderrData = Data()
    DispatchQueue.global().async(group: group) { stdoutData = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { stderrData = err.fileHandleForReading.readDataToEndOfFile() }
    group.wait()
    termination.wait()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self))
  }

  /// The full path of `name` on `PATH`, if it is there.
  public static func which(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String?
  {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    for directory in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
