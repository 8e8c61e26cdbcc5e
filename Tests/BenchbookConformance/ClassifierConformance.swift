import BenchbookData
import BenchbookModels
import Testing

/// The checks behind `ConformanceCheck`, and what they share: building a model's configurations from spec
/// settings, an alternative value for every setting, and comparisons of values and matrices.
public enum ClassifierConformance {
  // MARK: - Descriptor

  /// The descriptor states nothing its type cannot serve, and every name selects it (once registered).
  static func soundDescriptor(_ model: ModelDescriptor) {
    #expect(model.problems.isEmpty, "\(model.problems)")
    #expect(model.defaultClassifier().descriptor == model, "its type's descriptor is another")
    if ModelRegistry.descriptor(id: model.id) != nil {
      for name in model.names {
        #expect(ModelRegistry.descriptor(named: name) == model, "'\(name)' selects another model")
      }
    }
  }

  // MARK: - Configurations

  /// The configurations the round-trip and fitted-model checks use.
  enum Configuration: String, CaseIterable, Sendable {
    /// Every setting at its default.
    case defaults
    /// Every setting that has another value at that value (`alternative(to:)`).
    case varied

    /// The spec settings that select this configuration of `model`.
    func settings(_ model: ModelDescriptor) -> [String: String] {
      guard self == .varied else { return [:] }
      var settings: [String: String] = [:]
      for setting in model.settingsSchema {
        if let value = ClassifierConformance.alternative(to: setting) {
          settings[setting.name] = SettingDescriptor.specText(value)
        }
      }
      return settings
    }
  }

  static func classifier(_ model: ModelDescriptor, _ settings: [String: String]) throws(SettingError)
    -> any Classifier
  {
    var reader = SettingsReader(settings)
    return try model.makeClassifier(settings: &reader)
  }

  /// A value other than the default that the setting accepts, or `nil` if it has none: the setting's own
  /// `alternative` when it states one (`nil` when that is the default), else numbers ×10 (0 becomes 0.01), whole
  /// numbers +2, `none` becomes 3, flags flip, words move to the first other option (a setting of words or a number
  /// without one: 0.5).
  static func alternative(to setting: SettingDescriptor) -> ParameterValue? {
    if let stated = setting.alternative { return identical(stated, setting.defaultValue) ? nil : stated }
    switch setting.type {
    case .number:
      let number = setting.defaultValue.number ?? 0
      return .double(number == 0 ? 0.01 : 10 * number)
    case .wholeNumber:
      return .int(Int(setting.defaultValue.number ?? 0) + 2)
    case .optionalWholeNumber:
      return .int(setting.defaultValue.number.map { Int($0) + 2 } ?? 3)
    case .flag:
      guard case .bool(let flag) = setting.defaultValue else { return nil }
      return .bool(!flag)
    case .word(let options):
      return options.first { !sameWord(.string($0), setting.defaultValue) }.map { .string($0) }
    case .wordOrNumber(let options):
      // Another word, else a share (words or a number: `max_features`, `max_samples`).
      let current = SettingDescriptor.specText(setting.defaultValue)
      return options.first { $0 != current }.map { .string($0) } ?? .double(0.5)
    }
  }

  // MARK: - Comparisons

  /// Same case and same value (`ParameterValue ==` equates `.int(2)` with `.double(2)`).
  static func identical(_ a: ParameterValue, _ b: ParameterValue) -> Bool {
    switch (a, b) {
    case (.int(let x), .int(let y)): x == y
    case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
    case (.string(let x), .string(let y)): x == y
    case (.bool(let x), .bool(let y)): x == y
    case (.none, .none): true
    default: false
    }
  }

  static func identical(_ a: [String: ParameterValue], _ b: [String: ParameterValue]) -> Bool {
    Set(a.keys) == Set(b.keys) && a.allSatisfy { key, value in b[key].map { identical(value, $0) } ?? false }
  }

  /// Two words that `SettingsReader.choice` reads alike (case and `_`/`-` ignored).
  static func sameWord(_ a: ParameterValue, _ b: ParameterValue) -> Bool {
    guard case .string(let x) = a, case .string(let y) = b else { return false }
    func normalized(_ word: String) -> String { word.lowercased().replacingOccurrences(of: "_", with: "-") }
    return normalized(x) == normalized(y)
  }

  /// Whether `value` is of the schema's type (a word up to `sameWord` spelling).
  static func fits(_ value: ParameterValue, _ type: SettingDescriptor.ValueType) -> Bool {
    switch (type, value) {
    case (.number, .double), (.wholeNumber, .int), (.optionalWholeNumber, .int), (.optionalWholeNumber, .none),
      (.flag, .bool):
      true
    case (.word(let options), .string):
      options.contains { sameWord(.string($0), value) }
    case (.wordOrNumber(let options), .string), (.wordOrNumber(let options), .none):
      options.contains(SettingDescriptor.specText(value))
    case (.wordOrNumber, .int), (.wordOrNumber, .double):
      true
    default: false
    }
  }

  /// `x` with every value rounded to float32 (NaN stays NaN): the values an app passes to a float32 file.
  public static func float32(_ x: Matrix) -> Matrix {
    Matrix(rows: x.rows, columns: x.columns, values: x.values.map { Double(Float($0)) })
  }

  public static func bitwiseEqual(_ a: Matrix, _ b: Matrix) -> Bool {
    a.rows == b.rows && a.columns == b.columns && a.values.map(\.bitPattern) == b.values.map(\.bitPattern)
  }

  /// `rows` × `classCount`, every entry in [0, 1], every row summing to 1 within 1e-12.
  static func expectDistributions(
    _ probabilities: Matrix, rows: Int, classCount: Int, _ comment: Comment,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(probabilities.rows == rows, comment, sourceLocation: sourceLocation)
    #expect(probabilities.columns == classCount, comment, sourceLocation: sourceLocation)
    guard probabilities.rows == rows, probabilities.columns == classCount else { return }
    let outside = probabilities.values.filter { !($0 >= 0 && $0 <= 1) }
    #expect(outside.isEmpty, "\(comment): outside [0, 1]: \(outside.prefix(5))", sourceLocation: sourceLocation)
    // Written so that a NaN sum fails too.
    let badRows = (0..<rows).filter { !(abs(probabilities.row($0).reduce(0, +) - 1) <= 1e-12) }
    #expect(badRows.isEmpty, "\(comment): rows not summing to 1: \(badRows.prefix(5))", sourceLocation: sourceLocation)
  }

  /// Configurations of one type fitted together (`Classifier.sharedFits`).
  static func sharedFits(_ configurations: [any Classifier], _ x: Matrix, _ labels: [Int], _ classCount: Int) throws
    -> [any FittedClassifier]
  {
    func open<C: Classifier>(_ first: C) throws -> [any FittedClassifier] {
      try C.sharedFits(configurations.map { $0 as! C }, x, labels: labels, classCount: classCount)
    }
    return try open(configurations[0])
  }

  /// Configurations of one type fitted for their exported files alone (`Classifier.exportFits`).
  static func exportFits(_ configurations: [any Classifier], _ x: Matrix, _ labels: [Int], _ classCount: Int) throws
    -> [any FittedClassifier]
  {
    func open<C: Classifier>(_ first: C) throws -> [any FittedClassifier] {
      try C.exportFits(configurations.map { $0 as! C }, x, labels: labels, classCount: classCount)
    }
    return try open(configurations[0])
  }

  /// Configurations of one type fitted together and predicting `test` together (`Classifier.sharedPredictions`).
  static func sharedPredictions(
    _ configurations: [any Classifier], _ x: Matrix, _ labels: [Int], _ classCount: Int, _ test: Matrix
  ) throws -> [Matrix] {
    func open<C: Classifier>(_ first: C) throws -> [Matrix] {
      try C.sharedPredictions(configurations.map { $0 as! C }, x, labels: labels, classCount: classCount, test: test)
    }
    return try open(configurations[0])
  }
}
