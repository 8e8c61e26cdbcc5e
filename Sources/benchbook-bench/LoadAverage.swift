import Foundation

/// The system's load averages (1, 5 and 15 minutes), from `/proc/loadavg`: recorded around every
/// measured pair so that a busy machine shows in the bench's output.
enum LoadAverage {
  /// The 1-minute load average, or 0 where `/proc/loadavg` cannot be read.
  static func oneMinute() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
    return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
  }
}
