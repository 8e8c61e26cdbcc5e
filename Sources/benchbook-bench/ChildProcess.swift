import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A finished child process: its exit status, wall and CPU time and peak resident memory.
struct ChildProcess {
  var status: Int32
  var wallSeconds: Double
  /// User and system CPU seconds of the child (every thread), from `wait4`'s resource usage.
  var cpuSeconds: Double = 0
  /// The child's own peak resident set size, from `wait4`'s resource usage.
  var peakResidentBytes: Int
  /// `CLOCK_MONOTONIC` seconds just before the child was started, the clock a phase log is written in.
  var startedAt: Double = 0

  /// Runs `arguments` (found on PATH) to completion with inherited output.
  /// - Parameters:
  ///   - environment: variables added to (or replacing) this process's environment for the child.
  ///   - standardOutput: a file the child's standard output goes to instead.
  ///   - standardError: likewise for standard error.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], standardOutput: String? = nil,
    standardError: String? = nil
  ) throws -> ChildProcess {
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let standardOutput {
      posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    if let standardError {
      posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    let start = monotonicSeconds()
    let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchFailure("waiting for \(arguments[0]) failed") }
    }
    let end = monotonicSeconds()
    let exited = (status & 0x7f) == 0
    return ChildProcess(
      status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
      wallSeconds: end - start,
      cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6,
      peakResidentBytes: Int(usage.ru_maxrss) * 1024,
      startedAt: start)
  }

  /// `CLOCK_MONOTONIC` in seconds: the clock Benchbook's phase log uses, so the two can be subtracted.
  static func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

extension ChildProcess {
  /// Runs `arguments` like `run`; an exit status outside `accepting` is a failure naming `what`.
  static func succeeding(
    _ arguments: [String], _ what: String, environment: [String: String] = [:], accepting: Set<Int32> = [0]
  ) throws -> ChildProcess {
    let child = try run(arguments, environment: environment)
    guard accepting.contains(child.status) else { throw BenchFailure("\(what) exited with \(child.status)") }
    return child
  }

  /// A JSON object file that a child wrote (results.json, a reference script's figures).
  static func json(_ path: String) throws -> [String: Any] {
    guard
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any]
    else { throw BenchFailure("\(path) does not hold a JSON object") }
    return object
  }
}

struct BenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
