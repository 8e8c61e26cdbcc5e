import Foundation

/// Number formats shared by the report's sections and the audit checks' evidence, so a figure reads the same
/// everywhere.
public enum Format {
  /// Fixed decimals; `–` for a missing value.
  public static func fixed(_ value: Double?, _ digits: Int) -> String {
    guard let value, value.isFinite else { return value.map { $0.isNaN ? "NaN" : ($0 > 0 ? "∞" : "−∞") } ?? "–" }
    return String(format: "%.\(digits)f", value)
  }

  /// `0.5323 ± 0.0504`.
  public static func meanStd(_ mean: Double?, _ std: Double?, _ digits: Int = 4) -> String {
    guard let mean else { return "–" }
    guard let std else { return fixed(mean, digits) }
    return "\(fixed(mean, digits)) ± \(fixed(std, digits))"
  }

  /// A small difference with enough digits to be seen: 0.000014, 0.0021, 0.31.
  public static func difference(_ value: Double) -> String {
    guard value.isFinite else { return fixed(value, 0) }
    if value == 0 { return "0" }
    let magnitude = abs(value)
    let digits = max(2, min(9, Int((-log10(magnitude)).rounded(.down)) + 2))
    return String(format: "%.\(digits)f", value)
  }

  /// p-values: `0.031`, `< 0.001`.
  public static func pValue(_ p: Double) -> String {
    if p.isNaN { return "–" }
    if p < 0.001 { return "< 0.001" }
    return String(format: "%.3f", p)
  }

  /// Seconds in the unit that reads best: `85 µs`, `12.3 ms`, `1.42 s`.
  public static func duration(_ seconds: Double?) -> String {
    guard let seconds, seconds.isFinite else { return "–" }
    if seconds < 1e-3 { return String(format: "%.0f µs", seconds * 1e6) }
    if seconds < 1 { return String(format: "%.1f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
  }

  /// File sizes in the unit that reads best: `1.7 kB`, `6.9 MB` (decimal units, as Finder and Xcode show them).
  public static func bytes(_ count: Int) -> String {
    let value = Double(count)
    if count < 1000 { return "\(count) B" }
    if value < 1e6 { return String(format: "%.1f kB", value / 1e3) }
    if value < 1e9 { return String(format: "%.1f MB", value / 1e6) }
    return String(format: "%.2f GB", value / 1e9)
  }

  /// Rates: `260k rows/s`, `67M rows/s`.
  public static func rate(_ perSecond: Double?) -> String {
    guard let perSecond, perSecond.isFinite else { return "–" }
    if perSecond >= 1e6 { return String(format: "%.0fM", perSecond / 1e6) }
    if perSecond >= 1e3 { return String(format: "%.0fk", perSecond / 1e3) }
    return String(format: "%.0f", perSecond)
  }

  /// Microseconds with sensible precision: `0.17 µs`, `4.0 µs`, `85 µs`.
  public static func microseconds(_ value: Double) -> String {
    if value < 1 { return String(format: "%.2f µs", value) }
    if value < 10 { return String(format: "%.1f µs", value) }
    return String(format: "%.0f µs", value)
  }

  /// A percentage with one decimal: `12.5%`.
  public static func percent(_ share: Double) -> String { String(format: "%.1f%%", share * 100) }

  /// Thousands separated by commas: `327,346`.
  public static func count(_ value: Int) -> String {
    let digits = String(abs(value))
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
      groups.insert(digits[start..<end], at: 0)
      end = start
    }
    return (value < 0 ? "-" : "") + groups.joined(separator: ",")
  }

  /// A compact general number for ranges: integers as integers, others to 4 significant digits.
  public static func number(_ value: Double) -> String {
    if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
    return String(format: "%.4g", value)
  }

  /// Small counts in words, as prose writes them: `seven`; larger ones in digits.
  public static func word(_ count: Int) -> String {
    let words = [
      "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ]
    return words.indices.contains(count) ? words[count] : "\(count)"
  }
}
