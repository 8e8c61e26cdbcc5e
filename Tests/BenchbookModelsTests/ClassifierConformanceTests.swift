import BenchbookData
import BenchbookModels
import Testing

/// What every classifier promises, checked for each registered model (`ModelRegistry`) in turn, so a newly
/// registered classifier is held to the same contract without a line of test code:
/// its settings schema describes exactly its `parameters`, settings survive the
/// spec-text round trip the tuner relies on, and its probabilities are
/// distributions over the full class set, reproducible and computed without
/// touching the caller's data.
@Suite struct ClassifierConformanceTests {
  /// The small datasets the fitted-model checks run on.
  enum Dataset: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Iris: three classes, unstandardised.
    case iris
    /// Versicolor against virginica (overlapping classes), standardised.
    case irisTwoClasses = "iris-versicolor-virginica"
    /// Breast cancer: two classes, 30 standardised features.
    case breastCancer = "breast-cancer"

    var testDescription: String { rawValue }

    func load() throws -> (x: Matrix, labels: [Int], classCount: Int) {
      switch self {
      case .iris:
        let (x, labels, classCount) = try LinearGoldens.dataset("iris.csv")
        return (x, labels, classCount)
      case .irisTwoClasses:
        let (x, labels, _) = try LinearGoldens.dataset("iris.csv")
        let rows = labels.indices.filter { labels[$0] != 0 }
        let subset = x.selecting(rows: rows)
        return (StandardScaler().fit(subset).transform(subset), rows.map { labels[$0] - 1 }, 2)
      case .breastCancer:
        let (x, labels, classCount) = try LinearGoldens.dataset("breast_cancer.csv")
        return (StandardScaler().fit(x).transform(x), labels, classCount)
      }
    }
  }

  /// The configurations the round-trip and fitted-model checks use.
  enum Configuration: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Every setting at its default.
    case defaults
    /// Every setting that has another value at that value (`alternative(to:)`).
    case varied

    var testDescription: String { rawValue }

    /// The spec settings that select this configuration of `kind`.
    func settings(_ kind: ModelDescriptor) -> [String: String] {
      guard self == .varied else { return [:] }
      var settings: [String: String] = [:]
      for setting in kind.settingsSchema {
        if let value = ClassifierConformanceTests.alternative(to: setting) {
          settings[setting.name] = SettingDescriptor.specText(value)
        }
      }
      return settings
    }
  }

  // MARK: - Schema

  @Test(arguments: ModelRegistry.all)
  func schemaDescribesExactlyTheParameters(_ kind: ModelDescriptor) throws {
    let schema = kind.settingsSchema
    let names = schema.map(\.name)
    #expect(Set(names).count == names.count, "setting names repeat: \(names)")
    // No spelling (name or alias) may stand for two settings, or twice for one.
    let spellings = schema.flatMap(\.spellings)
    #expect(Set(spellings).count == spellings.count, "spellings collide: \(spellings)")
    for setting in schema {
      for spelling in setting.spellings {
        #expect(kind.setting(named: spelling) == setting, "'\(spelling)' finds another setting")
      }
    }
    #expect(kind.setting(named: "no_such_setting") == nil)

    let classifier = try Self.classifier(kind, [:])
    #expect(classifier.descriptor == kind)
    let parameters = classifier.parameters
    #expect(Set(parameters.keys) == Set(names), "parameters \(parameters.keys.sorted()) vs schema \(names.sorted())")
    for setting in schema {
      let value = try #require(parameters[setting.name], "no parameter '\(setting.name)'")
      #expect(
        Self.identical(value, setting.defaultValue),
        "\(setting.name): default \(setting.defaultValue) in the schema, \(value) when constructed")
      #expect(Self.fits(setting.defaultValue, setting.type), "\(setting.name): default \(setting.defaultValue)")
      #expect(Self.fits(value, setting.type), "\(setting.name): parameter \(value) is not a \(setting.type)")
    }
  }

  @Test(arguments: ModelRegistry.all)
  func aliasesReadAsTheirSetting(_ kind: ModelDescriptor) throws {
    for setting in kind.settingsSchema where !setting.aliases.isEmpty {
      let value = SettingDescriptor.specText(Self.alternative(to: setting) ?? setting.defaultValue)
      let byName = try Self.classifier(kind, [setting.name: value]).parameters
      for alias in setting.aliases {
        let byAlias = try Self.classifier(kind, [alias: value]).parameters
        #expect(Self.identical(byAlias, byName), "\(alias): \(value)")
      }
    }
  }

  // MARK: - Settings

  /// `parameters` written as spec text and read back give the same configuration:
  /// the path a tuned model's chosen configuration takes (`NestedTuning`).
  @Test(arguments: ModelRegistry.all, Configuration.allCases)
  func settingsSurviveTheSpecTextRoundTrip(_ kind: ModelDescriptor, _ configuration: Configuration) throws {
    let original = try Self.classifier(kind, configuration.settings(kind))
    let text = original.parameters.mapValues(SettingDescriptor.specText)
    let copy = try Self.classifier(kind, text)
    #expect(copy.descriptor == kind)
    #expect(Self.identical(copy.parameters, original.parameters), "read back from \(text)")
    // And again: the text of the copy is the text of the original.
    #expect(copy.parameters.mapValues(SettingDescriptor.specText) == text)
  }

  /// The varied configuration really differs from the defaults in every setting that has another value.
  @Test(arguments: ModelRegistry.all)
  func variedConfigurationChangesEverySetting(_ kind: ModelDescriptor) throws {
    let parameters = try Self.classifier(kind, Configuration.varied.settings(kind)).parameters
    for setting in kind.settingsSchema {
      let value = try #require(parameters[setting.name])
      guard let chosen = Self.alternative(to: setting) else {
        #expect(Self.identical(value, setting.defaultValue), "\(setting.name) has no other value")
        continue
      }
      #expect(!Self.identical(value, setting.defaultValue), "\(setting.name) stayed at its default")
      if case .word = setting.type {
        // A word may come back in scikit-learn's spelling (`kd-tree` as `kd_tree`).
        #expect(Self.sameWord(value, chosen), "\(setting.name): asked for \(chosen), got \(value)")
      } else {
        #expect(Self.identical(value, chosen), "\(setting.name): asked for \(chosen), got \(value)")
      }
    }
  }

  /// Every option a word setting lists is accepted, and reads as a listed option. Several may read
  /// alike: k-nearest neighbours lists `linear` beside scikit-learn's `brute`, and reports both as `brute`.
  @Test(arguments: ModelRegistry.all)
  func everyListedWordIsAccepted(_ kind: ModelDescriptor) throws {
    for setting in kind.settingsSchema {
      guard case .word(let options) = setting.type else { continue }
      #expect(options.contains { Self.sameWord(setting.defaultValue, .string($0)) }, "\(setting.name) default")
      for option in options {
        let value = try #require(try Self.classifier(kind, [setting.name: option]).parameters[setting.name])
        #expect(Self.fits(value, setting.type), "\(setting.name): \(option) read as \(value)")
      }
    }
  }

  @Test(arguments: ModelRegistry.all)
  func unknownSettingIsRejectedByItsKey(_ kind: ModelDescriptor) {
    let unknown = ["no_such_setting": "1"]
    for settings in [unknown, Configuration.varied.settings(kind).merging(unknown) { $1 }] {
      do {
        _ = try Self.classifier(kind, settings)
        Issue.record("accepted \(settings)")
      } catch {
        #expect(error.key == "no_such_setting")
        #expect(error.message.contains("no_such_setting"))
      }
    }
  }

  // MARK: - Fitted models

  @Test(arguments: ModelRegistry.all, Dataset.allCases)
  func probabilitiesAreDistributions(_ kind: ModelDescriptor, _ dataset: Dataset) throws {
    let data = try dataset.load()
    for configuration in Configuration.allCases {
      let classifier = try Self.classifier(kind, configuration.settings(kind))
      let fitted = try classifier.fit(data.x, labels: data.labels, classCount: data.classCount)
      #expect(fitted.classCount == data.classCount)
      #expect(fitted.parameterCount > 0)
      let probabilities = fitted.predictProbabilities(data.x)
      Self.expectDistributions(probabilities, rows: data.x.rows, classCount: data.classCount, "\(configuration)")
    }
  }

  @Test(arguments: ModelRegistry.all)
  func absentClassGetsAZeroColumn(_ kind: ModelDescriptor) throws {
    let (x, labels, classCount) = try LinearGoldens.dataset("iris.csv")
    #expect(classCount == 3)
    let rows = labels.indices.filter { labels[$0] != 1 }  // setosa and virginica; no versicolor
    let train = x.selecting(rows: rows)
    for configuration in Configuration.allCases {
      let classifier = try Self.classifier(kind, configuration.settings(kind))
      let fitted = try classifier.fitPresentClasses(train, labels: rows.map { labels[$0] }, classCount: 3)
      #expect(fitted.classCount == 3)
      let probabilities = fitted.predictProbabilities(x)
      Self.expectDistributions(probabilities, rows: x.rows, classCount: 3, "\(configuration)")
      #expect(probabilities.column(1).allSatisfy { $0 == 0 }, "\(configuration): the absent class has probability")
    }
  }

  @Test(arguments: ModelRegistry.all, [Double.nan, .infinity, -.infinity])
  func nonFiniteFeaturesAreRejected(_ kind: ModelDescriptor, _ value: Double) throws {
    let (clean, labels, classCount) = try LinearGoldens.dataset("iris.csv")
    var x = clean
    x[7, 2] = value
    let classifier = try Self.classifier(kind, [:])
    #expect(throws: ModelError.self, "fit") { try classifier.fit(x, labels: labels, classCount: classCount) }
    #expect(throws: ModelError.self, "fitPresentClasses") {
      try classifier.fitPresentClasses(x, labels: labels, classCount: classCount)
    }
  }

  @Test(arguments: ModelRegistry.all, Dataset.allCases)
  func fittingIsDeterministicAndLeavesItsInputsAlone(_ kind: ModelDescriptor, _ dataset: Dataset) throws {
    let data = try dataset.load()
    let (x, labels) = (data.x, data.labels)
    for configuration in Configuration.allCases {
      let classifier = try Self.classifier(kind, configuration.settings(kind))
      let first = try classifier.fit(x, labels: labels, classCount: data.classCount).predictProbabilities(x)
      let second = try classifier.fit(x, labels: labels, classCount: data.classCount).predictProbabilities(x)
      #expect(Self.bitwiseEqual(first, second), "\(configuration): two fits differ")
      #expect(Self.bitwiseEqual(x, data.x), "\(configuration): the features changed")
      #expect(labels == data.labels, "\(configuration): the labels changed")
    }
  }

  /// A model that claims not to depend on the order of its training rows (`RowOrderDependence.independent`) may be
  /// handed them in whichever order is cheaper to gather: the same rows reversed and interleaved give the same
  /// predictions, to the tolerance it declares (0: to the bit, as a tree's splits depend on the values alone;
  /// rounding for the models that sum over rows; a solver's tolerance for logistic regression).
  @Test(arguments: ModelRegistry.all, Dataset.allCases)
  func rowOrderChangesOnlyWhatItClaims(_ kind: ModelDescriptor, _ dataset: Dataset) throws {
    let data = try dataset.load()
    let rows = Array(0..<data.x.rows)
    let shuffled = rows.filter { $0 % 2 == 1 }.reversed() + rows.filter { $0 % 2 == 0 }
    for configuration in Configuration.allCases {
      let classifier = try Self.classifier(kind, configuration.settings(kind))
      let inOrder = try classifier.fit(data.x, labels: data.labels, classCount: data.classCount)
        .predictProbabilities(data.x)
      let reordered = try classifier.fit(
        data.x.selecting(rows: shuffled), labels: shuffled.map { data.labels[$0] }, classCount: data.classCount
      ).predictProbabilities(data.x)
      switch kind.traits.rowOrder {
      case .dependsOnOrder:
        continue
      case .independent(let tolerance) where tolerance == 0:
        #expect(Self.bitwiseEqual(inOrder, reordered), "\(configuration): the fit changed")
      case .independent(let tolerance):
        #expect(Self.largestDifference(inOrder, reordered) <= tolerance, "\(configuration)")
      }
    }
  }

  /// Tuning fits configurations together where they can share work; the result must be that of separate fits,
  /// to the bit (logistic regression's warm starts: to the solver's tolerance). The grid varies every searchable setting over its default, its alternative and (for whole
  /// numbers) a third value, so kNN's shared query and the tree's cut-back are exercised across k and depth.
  @Test(arguments: ModelRegistry.all, Dataset.allCases)
  func sharedFitsEqualSeparateFits(_ kind: ModelDescriptor, _ dataset: Dataset) throws {
    let data = try dataset.load()
    let train = Array(stride(from: 0, to: data.x.rows, by: 1)).filter { $0 % 4 != 0 }
    let test = Array(stride(from: 0, to: data.x.rows, by: 4))
    let (x, labels) = (data.x.selecting(rows: train), train.map { data.labels[$0] })
    let testX = data.x.selecting(rows: test)
    var grid: [[String: String]] = [[:]]
    for setting in kind.settingsSchema where setting.searchable {
      var values = [setting.defaultValue]
      if let alternative = Self.alternative(to: setting) { values.append(alternative) }
      if case .optionalWholeNumber = setting.type { values.append(.int(1)) }
      if case .wholeNumber = setting.type, case .int(let base) = setting.defaultValue { values.append(.int(base + 5)) }
      grid = grid.flatMap { prefix in
        values.map { value in prefix.merging([setting.name: SettingDescriptor.specText(value)]) { $1 } }
      }
    }
    let configurations = try grid.map { try Self.classifier(kind, $0) }
    let shared = try Self.sharedPredictions(configurations, x, labels, data.classCount, testX)
    let fits = try Self.sharedFits(configurations, x, labels, data.classCount)
    #expect(shared.count == configurations.count)
    #expect(fits.count == configurations.count)
    for (c, configuration) in configurations.enumerated() {
      let alone = try configuration.fit(x, labels: labels, classCount: data.classCount).predictProbabilities(testX)
      for probabilities in [shared[c], fits[c].predictProbabilities(testX)] {
        if kind.traits.sharedFitTolerance > 0 {
          // A solver warm-started along a path reaches each optimum to its tolerance, not to the bit.
          #expect(
            Self.largestDifference(probabilities, alone) <= kind.traits.sharedFitTolerance,
            "\(configuration.parameters)")
        } else {
          #expect(Self.bitwiseEqual(probabilities, alone), "\(configuration.parameters)")
        }
      }
    }
  }

  static func sharedFits(_ configurations: [any Classifier], _ x: Matrix, _ labels: [Int], _ classCount: Int) throws
    -> [any FittedClassifier]
  {
    func open<C: Classifier>(_ first: C) throws -> [any FittedClassifier] {
      try C.sharedFits(configurations.map { $0 as! C }, x, labels: labels, classCount: classCount)
    }
    return try open(configurations[0])
  }

  static func largestDifference(_ a: Matrix, _ b: Matrix) -> Double {
    precondition(a.rows == b.rows && a.columns == b.columns)
    return zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
  }

  static func sharedPredictions(
    _ configurations: [any Classifier], _ x: Matrix, _ labels: [Int], _ classCount: Int, _ test: Matrix
  ) throws -> [Matrix] {
    func open<C: Classifier>(_ first: C) throws -> [Matrix] {
      try C.sharedPredictions(configurations.map { $0 as! C }, x, labels: labels, classCount: classCount, test: test)
    }
    return try open(configurations[0])
  }

  // MARK: - Helpers

  static func classifier(_ kind: ModelDescriptor, _ settings: [String: String]) throws(SettingError) -> any Classifier {
    var reader = SettingsReader(settings)
    return try kind.makeClassifier(settings: &reader)
  }

  /// A value other than the default that the setting accepts, or `nil` if it has none:
  /// numbers ×10 (0 becomes 0.01), whole numbers +2, `none` becomes 3, flags flip,
  /// words move to the first other option.
  static func alternative(to setting: SettingDescriptor) -> ParameterValue? {
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
    }
  }

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
    default: false
    }
  }

  static func bitwiseEqual(_ a: Matrix, _ b: Matrix) -> Bool {
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
}
