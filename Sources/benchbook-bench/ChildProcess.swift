import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A finished child process: its exit status, wall time and peak resident memory.
struct ChildProcess {
  var status: Int32
  var wallSeconds: Double
  /// The child's own peak resident set size, from `wait4`'s resource usage.
  var peakResidentBytes: Int

  /// Runs `arguments` (found on PATH) to completion with inherited output.
  static func run(_ arguments: [String]) throws -> ChildProcess {
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawnp(&pid, arguments[0], nil, nil, argv, environ)
    guard spawned == 0 else {
      throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchFailure("waiting for \(arguments[0]) failed") }
    }
    let end = DispatchTime.now().uptimeNanoseconds
    let exited = (status & 0x7f) == 0
    return ChildProcess(
      status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
      wallSeconds: Double(end - start) / 1e9,
      peakResidentBytes: Int(usage.ru_maxrss) * 1024)
  }
}

extension ChildProcess {
  /// Runs `arguments` like `run`; a non-zero exit is a failure naming `what`.
  static func succeeding(_ arguments: [String], _ what: String) throws -> ChildProcess {
    let child = try run(arguments)
    guard child.status == 0 else { throw BenchFailure("\(what) exited with \(child.status)") }
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
