import Foundation

/// Reads a model's settings, written as YAML scalars, into typed values.
///
/// Each classifier's `init(settings:)` takes the keys it knows; `finish()` then
/// rejects whatever is left, so a misspelt setting is an error, never ignored.
public struct SettingsReader: Sendable {
  private var remaining: [String: String]

  /// - Parameter values: setting name → scalar text as written in the spec.
  public init(_ values: [String: String] = [:]) {
    remaining = values
  }

  /// Takes a key (or one of its aliases) out of the remaining settings.
  private mutating func take(_ key: String, aliases: [String]) throws(SettingError) -> (String, String)? {
    let present = ([key] + aliases).filter { remaining[$0] != nil }
    if present.count > 1 {
      throw SettingError(key: present[1], message: "'\(present[1])' repeats '\(present[0])'; give only one")
    }
    guard let name = present.first, let text = remaining.removeValue(forKey: name) else { return nil }
    return (name, text)
  }

  private static func isNone(_ text: String) -> Bool {
    ["none", "null", "~", ""].contains(text.lowercased())
  }

  public mutating func double(
    _ key: String, aliases: [String] = [], default defaultValue: Double,
    requirement: String? = nil, isValid: (Double) -> Bool = { _ in true }
  ) throws(SettingError) -> Double {
    guard let (name, text) = try take(key, aliases: aliases) else { return defaultValue }
    guard let value = Double(text), value.isFinite else {
      throw SettingError(key: name, message: "\(name) must be a number, not '\(text)'")
    }
    guard isValid(value) else {
      throw SettingError(key: name, message: "\(name) must be \(requirement ?? "valid"), not \(text)")
    }
    return value
  }

  public mutating func int(
    _ key: String, aliases: [String] = [], default defaultValue: Int,
    requirement: String? = nil, isValid: (Int) -> Bool = { _ in true }
  ) throws(SettingError) -> Int {
    guard let value = try optionalInt(key, aliases: aliases, requirement: requirement, isValid: isValid) else {
      return defaultValue
    }
    return value
  }

  /// An integer that may be absent or written `none` (scikit-learn's `None`).
  public mutating func optionalInt(
    _ key: String, aliases: [String] = [], requirement: String? = nil, isValid: (Int) -> Bool = { _ in true }
  ) throws(SettingError) -> Int? {
    guard let (name, text) = try take(key, aliases: aliases), !Self.isNone(text) else { return nil }
    return try Self.wholeNumber(name, text, requirement: requirement, isValid: isValid)
  }

  /// An integer or `none` whose default is not `none`: absent gives `defaultValue`, `none` gives `nil`.
  public mutating func optionalInt(
    _ key: String, aliases: [String] = [], default defaultValue: Int?, requirement: String? = nil,
    isValid: (Int) -> Bool = { _ in true }
  ) throws(SettingError) -> Int? {
    guard let (name, text) = try take(key, aliases: aliases) else { return defaultValue }
    if Self.isNone(text) { return nil }
    return try Self.wholeNumber(name, text, requirement: requirement, isValid: isValid)
  }

  private static func wholeNumber(
    _ name: String, _ text: String, requirement: String?, isValid: (Int) -> Bool
  ) throws(SettingError) -> Int {
    guard let value = Int(text) else {
      throw SettingError(key: name, message: "\(name) must be a whole number, not '\(text)'")
    }
    guard isValid(value) else {
      throw SettingError(key: name, message: "\(name) must be \(requirement ?? "valid"), not \(text)")
    }
    return value
  }

  public mutating func bool(_ key: String, aliases: [String] = [], default defaultValue: Bool) throws(SettingError)
    -> Bool
  {
    guard let (name, text) = try take(key, aliases: aliases) else { return defaultValue }
    switch text.lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    default: throw SettingError(key: name, message: "\(name) must be true or false, not '\(text)'")
    }
  }

  /// One of a fixed set of words; the first alias of each option is its canonical spelling.
  public mutating func choice(
    _ key: String, aliases: [String] = [], options: [String], default defaultValue: String
  ) throws(SettingError) -> String {
    guard let (name, text) = try take(key, aliases: aliases) else { return defaultValue }
    let normalized = text.lowercased().replacingOccurrences(of: "_", with: "-")
    if let match = options.first(where: { $0.replacingOccurrences(of: "_", with: "-") == normalized }) {
      return match
    }
    throw SettingError(key: name, message: "\(name) must be one of \(options.joined(separator: ", ")), not '\(text)'")
  }

  /// A setting that is one of a few words or a number, as scikit-learn's `max_features` is `sqrt`, a count or a
  /// share: a whole number written without a point is a count, any other number a share.
  public enum WordOrNumber: Sendable, Hashable {
    case word(String)
    case whole(Int)
    case fraction(Double)
  }

  /// One of `words` (canonical spellings, `none` among them if allowed) or a number.
  public mutating func wordOrNumber(
    _ key: String, aliases: [String] = [], words: [String], default defaultValue: WordOrNumber
  ) throws(SettingError) -> WordOrNumber {
    guard let (name, text) = try take(key, aliases: aliases) else { return defaultValue }
    let normalized = Self.isNone(text) ? "none" : text.lowercased()
    if let word = words.first(where: { $0 == normalized }) { return .word(word) }
    if let whole = Int(text) { return .whole(whole) }
    if let number = Double(text), number.isFinite { return .fraction(number) }
    throw SettingError(
      key: name, message: "\(name) must be \(words.joined(separator: ", ")) or a number, not '\(text)'")
  }

  /// Fails on the first setting nobody asked for.
  public func finish(known: [String]) throws(SettingError) {
    if let key = remaining.keys.sorted().first {
      throw SettingError(
        key: key, message: "unknown setting '\(key)'; known settings are \(known.joined(separator: ", "))")
    }
  }
}

/// A model setting that is unknown or has a bad value; `key` lets the spec point at its line.
public struct SettingError: Error, Sendable, Equatable, CustomStringConvertible {
  public var key: String
  public var message: String
  public init(key: String, message: String) {
    self.key = key
    self.message = message
  }
  public var description: String { message }
}
