/// One setting a classifier accepts: its scikit-learn name, the spellings a spec
/// may use, the values it takes, its default, and whether a search space may vary it.
///
/// Each classifier lists its settings once (`Classifier.settingsSchema`); the spec
/// parser, the tuner and the conformance tests read that list instead of
/// repeating it.
public struct SettingDescriptor: Sendable, Hashable {
  /// The values a setting takes.
  public enum ValueType: Sendable, Hashable {
    case number
    case wholeNumber
    /// A whole number or `none` (scikit-learn's `None`).
    case optionalWholeNumber
    case flag
    /// One of these words (canonical spellings).
    case word([String])
    /// One of these words, or a number (a whole number a count, any other a share: `max_features`).
    case wordOrNumber([String])
  }

  /// scikit-learn's name, the key `parameters` uses.
  public var name: String
  /// Other names a spec may write (e.g. `k` for `n_neighbors`).
  public var aliases: [String]
  public var type: ValueType
  public var defaultValue: ParameterValue
  /// Whether a search space may list several values: settings that change the
  /// model, not only its speed or its solver's stopping rule.
  public var searchable: Bool
  /// A valid value other than the default, for checks that vary every setting (the conformance suite), when the
  /// generic one (a number ×10, a whole number +2) is out of range; equal to the default when there is none.
  public var alternative: ParameterValue?

  public init(
    _ name: String, aliases: [String] = [], type: ValueType, default defaultValue: ParameterValue,
    searchable: Bool, alternative: ParameterValue? = nil
  ) {
    self.name = name
    self.aliases = aliases
    self.type = type
    self.defaultValue = defaultValue
    self.searchable = searchable
    self.alternative = alternative
  }

  /// Every spelling a spec may use for this setting.
  public var spellings: [String] { [name] + aliases }

  /// `value` written as a spec would write it, so that reading it back gives the same setting.
  public static func specText(_ value: ParameterValue) -> String {
    switch value {
    case .double(let number): "\(number)"
    case .none: "none"
    default: value.description
    }
  }
}

extension Classifier {
  /// The schema entry a spec key names (by its scikit-learn name or an alias).
  public static func setting(named key: String) -> SettingDescriptor? {
    settingsSchema.first { $0.spellings.contains(key) }
  }
}
