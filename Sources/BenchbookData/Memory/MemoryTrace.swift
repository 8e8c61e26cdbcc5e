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
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    line += ", \((cpu * 10).rounded() / 10) CPU s so far"
    let text = Array((line + "\n").utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    resetPeak()
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
