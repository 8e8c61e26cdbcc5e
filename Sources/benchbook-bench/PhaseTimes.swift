import Foundation

/// One Benchbook run's wall and CPU seconds divided into the phases issue 32 names, read from the
/// lines `BENCHBOOK_PHASE_TIMES` makes it append (see `MemoryTrace`): each line ends a phase and
/// carries the monotonic clock and the CPU seconds so far, so a phase is the difference from the line
/// before it (the first from the moment the bench started the process, the last up to its exit).
struct PhaseTimes: Codable, Equatable {
  /// The phases, in the order a run passes through them; `other` holds marks this bench does not
  /// know (a phase someone adds later) and the exit after the last mark.
  static let names = ["load", "cross-validation", "on-device cost", "audit", "write", "other"]

  var wallSeconds: [String: Double]
  var cpuSeconds: [String: Double]

  /// A line of the log.
  struct Mark: Equatable {
    var phase: String
    var monotonicSeconds: Double
    var cpuSeconds: Double
  }

  /// The phase a mark of `MemoryTrace` ends.
  static func phase(ofMark mark: String) -> String {
    if mark.hasPrefix("load") { return "load" }
    if mark == "fold plan" || mark.hasPrefix("cross-validation") { return "cross-validation" }
    if mark.hasPrefix("results") { return "on-device cost" }
    if mark.hasPrefix("leak audit") { return "audit" }
    if mark == "write" { return "write" }
    return "other"
  }

  static func parse(_ text: String) throws -> [Mark] {
    try text.split(separator: "\n").map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let phase = object["phase"] as? String, let clock = object["monotonic_seconds"] as? Double,
        let cpu = object["cpu_seconds"] as? Double
      else { throw BenchFailure("a phase-times line is not {phase, monotonic_seconds, cpu_seconds}: \(line)") }
      return Mark(phase: phase, monotonicSeconds: clock, cpuSeconds: cpu)
    }
  }

  /// - Parameters:
  ///   - startedAt: the monotonic clock when the process was started.
  ///   - wallSeconds, cpuSeconds: the whole process's, as `wait4` saw them.
  init(marks: [Mark], startedAt: Double, wallSeconds: Double, cpuSeconds: Double) {
    var wall = Dictionary(uniqueKeysWithValues: Self.names.map { ($0, 0.0) })
    var cpu = wall
    var clock = startedAt
    var used = 0.0
    for mark in marks {
      let phase = Self.phase(ofMark: mark.phase)
      wall[phase]! += mark.monotonicSeconds - clock
      cpu[phase]! += mark.cpuSeconds - used
      (clock, used) = (mark.monotonicSeconds, mark.cpuSeconds)
    }
    wall["other"]! += max(0, startedAt + wallSeconds - clock)
    cpu["other"]! += max(0, cpuSeconds - used)
    self.wallSeconds = wall
    self.cpuSeconds = cpu
  }

  init(wallSeconds: [String: Double], cpuSeconds: [String: Double]) {
    self.wallSeconds = wallSeconds
    self.cpuSeconds = cpuSeconds
  }
}
