import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Peak resident memory per phase of a run, for the memory work of `make bench`.
///
/// Off unless `BENCHBOOK_MEMORY_TRACE=1`. Each mark prints the peak since the
/// previous mark, the resident size now, the phase's wall time and the CPU time so far (so a
/// change that trades memory for time shows both), to stderr; the peak is reset by
/// writing 5 to `/proc/self/clear_refs` (Linux 4.0+), so every phase reports
/// its own high-water mark rather than the run's.
///
/// Apart from that trace, `BENCHBOOK_PHASE_TIMES=PATH` appends one JSON line per mark to PATH:
/// the phase, the monotonic clock and the CPU seconds so far (reaped child processes, the plots,
/// included). It reads no `/proc` file and resets no peak, so `make bench` can take CPU and wall
/// time by phase from the very runs it times.
public enum MemoryTrace {
  public static let isEnabled: Bool = {
    guard let value = getenv("BENCHBOOK_MEMORY_TRACE") else { return false }
    return String(cString: value) == "1"
  }()

  /// Starts the first phase's clock; call first thing in `main`.
  public static func start() {
    guard isEnabled else { return }
    phaseStart.store(monotonicNanoseconds(), ordering: .relaxed)
  }

  /// Reports the phase that just ended, then starts measuring the next.
  /// - Parameter rows: when given, the peak is also shown per row.
  public static func mark(_ phase: String, rows: Int? = nil) {
    if let phaseTimesPath { appendPhaseTime(phase, to: phaseTimesPath) }
    guard isEnabled else { return }
    let status = procStatus()
    let peak = status["VmHWM"] ?? 0
    let now = status["VmRSS"] ?? 0
    var line = "memory: \(phase): peak \(megabytes(peak)) MB, now \(megabytes(now)) MB"
    if let rows, rows > 0 { line += ", peak \(peak / rows) B/row" }
    let clock = monotonicNanoseconds()
    let tenths = Int((clock - phaseStart.exchange(clock, ordering: .relaxed)) / 100_000_000)
    line += ", \(tenths / 10).\(tenths % 10) s"
    // CPU seconds so far, so a trace also shows where the time goes.
    let cpu = cpuSecondsSoFar()
    line += ", \((cpu * 10).rounded() / 10) CPU s so far"
    let text = Array((line + "\n").utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    resetPeak()
  }

  /// `BENCHBOOK_PHASE_TIMES`, when set and not empty.
  public static let phaseTimesPath: String? = {
    guard let value = getenv("BENCHBOOK_PHASE_TIMES"), value.pointee != 0 else { return nil }
    return String(cString: value)
  }()

  /// Appends `{"phase": …, "monotonic_seconds": …, "cpu_seconds": …}` and a newline; the reader
  /// takes differences between lines (and from its own clock when it started the process).
  private static func appendPhaseTime(_ phase: String, to path: String) {
    let clock = Double(monotonicNanoseconds()) / 1e9
    let escaped = phase.filter { $0 != "\"" && $0 != "\\" }  // phase names are literals; keep the line JSON
    // Reaped children (the plots) too: the wall time of the phase that waits for them includes them.
    let cpu = cpuSecondsSoFar() + cpuSecondsSoFar(RUSAGE_CHILDREN)
    let line = "{\"phase\": \"\(escaped)\", \"monotonic_seconds\": \(clock), \"cpu_seconds\": \(cpu)}\n"
    let file = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard file >= 0 else { return }
    let bytes = Array(line.utf8)
    _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
  }

  /// User and system CPU seconds of the whole process (every thread) so far, or of its reaped children.
  private static func cpuSecondsSoFar(_ who: __rusage_who = RUSAGE_SELF) -> Double {
    var usage = rusage()
    getrusage(who.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }

  /// When the phase being measured began.
  private static let phaseStart = Atomic<UInt64>(monotonicNanoseconds())

  private static func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  private static func megabytes(_ bytes: Int) -> String {
    let tenths = (bytes + 50_000) / 100_000
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// VmHWM and VmRSS in bytes.
  private static func procStatus() -> [String: Int] {
    guard let file = fopen("/proc/self/status", "r") else { return [:] }
    defer { fclose(file) }
    var result: [String: Int] = [:]
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
      let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" || $0 == "\n" })
      guard parts.count >= 2, let kilobytes = Int(parts[1]) else { continue }
      result[String(parts[0])] = kilobytes * 1024
    }
    return result
  }

  private static func resetPeak() {
    guard let file = fopen("/proc/self/clear_refs", "w") else { return }
    fputs("5", file)
    fclose(file)
  }
}
