import Foundation

/// `BENCHBOOK_TEST_REPEAT_FIT=LABEL:N`, for tests only: the model labelled LABEL
/// does its real fit work N times per fit, so a test can plant a genuine slowdown
/// without a second build. N is a number of at least 1; a fraction spreads the
/// extra work evenly (1.5: every other fit is done twice).
public struct FitRepeat: Sendable, Hashable, CustomStringConvertible {
  public static let variable = "BENCHBOOK_TEST_REPEAT_FIT"

  public var label: String
  public var factor: Double
  /// The variable's value as given, for records.
  public var description: String

  public init(parsing text: String) throws(Malformed) {
    guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else {
      throw Malformed(value: text, reason: "expected LABEL:N, as in NB:3")
    }
    guard let factor = Double(text[text.index(after: colon)...]), factor.isFinite else {
      throw Malformed(value: text, reason: "N must be a number, as in NB:1.5")
    }
    guard factor >= 1 else {
      throw Malformed(value: text, reason: "N must be at least 1: a fit cannot be done less than once")
    }
    label = String(text[..<colon])
    self.factor = factor
    description = text
  }

  /// A value of the variable that is not `LABEL:N`.
  public struct Malformed: Error, CustomStringConvertible {
    public var value: String
    public var reason: String
    public var description: String { "\(FitRepeat.variable)=\(value): \(reason)" }
  }

  /// This process's setting; read once, so every fit of a run sees the same.
  public static let current: Result<FitRepeat?, Malformed> = {
    guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else { return .success(nil) }
    do throws(Malformed) { return .success(try FitRepeat(parsing: text)) } catch { return .failure(error) }
  }()

  /// The setting, checked against the spec's labels: a typo must not silently plant nothing.
  public static func active(labels: [String]) throws -> FitRepeat? {
    guard let setting = try current.get() else { return nil }
    guard labels.contains(setting.label) else {
      throw Malformed(
        value: setting.description,
        reason: "no model is labelled '\(setting.label)' (labels: \(labels.joined(separator: ", ")))")
    }
    return setting
  }

  /// How many times the `index`-th fit (from 0) of the labelled model is done: the
  /// running total after n fits is ⌊n·N⌋, so N = 1.5 gives 1, 2, 1, 2, …
  public static func fits(index: Int, factor: Double) -> Int {
    let before = (Double(index) * factor).rounded(.down)
    let after = (Double(index + 1) * factor).rounded(.down)
    return max(1, Int(after - before))
  }

  private static let counter = FitCounter()

  /// Whether a slowdown is planted in the model labelled `label` (without counting a fit).
  static func isPlanted(for label: String) -> Bool {
    guard case .success(let setting?) = current else { return false }
    return setting.label == label
  }

  /// The number of times to do this fit of the model labelled `label` (1 unless it is the one set).
  static func fitsNow(for label: String) -> Int {
    guard case .success(let setting?) = current, setting.label == label else { return 1 }
    return fits(index: counter.next(), factor: setting.factor)
  }
}

/// Counts the labelled model's fits across threads.
private final class FitCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count - 1
  }
}
