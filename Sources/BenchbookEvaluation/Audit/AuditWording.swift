import Foundation

/// Number formats for findings' messages, so every check words figures alike.
public enum AuditWording {
  /// `12.3%`, `0.0018%`: one decimal, or enough significant digits to show a small share.
  static func percent(_ share: Double) -> String {
    let value = share * 100
    if value == 0 || value >= 0.1 { return String(format: "%.1f%%", value) }
    return String(format: "%.2g%%", value)
  }

  /// `327,346`.
  static func count(_ value: Int) -> String { Format.count(value) }

  static func fixed(_ value: Double, _ digits: Int = 4) -> String { String(format: "%.\(digits)f", value) }

  /// "3 rows", "1 row".
  static func rows(_ count: Int) -> String { "\(Self.count(count)) row\(count == 1 ? "" : "s")" }

  /// "A", "A and B", "A, B and C".
  static func list(_ items: [String]) -> String {
    switch items.count {
    case 0: ""
    case 1: items[0]
    default: items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
  }

  /// A fold as the report numbers it: `3`, or `2.3` (repeat 2, fold 3) for repeated k-fold.
  public static func foldName(_ fold: Int, _ repeatIndex: Int?, _ results: ExperimentResults) -> String {
    guard (results.resampling.repeats ?? 1) > 1, let repeatIndex else { return "\(fold + 1)" }
    return "\(repeatIndex + 1).\(fold % max(1, results.resampling.folds) + 1)"
  }

  /// Markdown bullets, one per line.
  public static func bullets(_ lines: [String]) -> String {
    lines.map { "- \($0)\n" }.joined()
  }

  /// A duration in the unit that reads best: `45 min`, `3.2 h`, `2.0 days`.
  public static func duration(_ seconds: Double) -> String {
    let magnitude = abs(seconds)
    if magnitude < 120 { return String(format: "%.0f s", seconds) }
    if magnitude < 7200 { return String(format: "%.0f min", seconds / 60) }
    if magnitude < 172_800 { return String(format: "%.1f h", seconds / 3600) }
    return String(format: "%.1f days", seconds / 86400)
  }
}
