/// Everything any stage needs to know about one algorithm, in one value: how specs and results name it, which
/// type implements it (and so its typed settings schema), how it behaves when fitted, and how its folds are fitted.
///
/// Each algorithm declares its descriptor in its own file beside the model (`LogisticRegression+Descriptor.swift`),
/// and `ModelRegistry` lists them. The spec parser, tuning, the scheduler, the audit, the report and
/// `benchbook models` read descriptors instead of switching over algorithms, so a new model is one model file,
/// one descriptor file and one registration line.
public struct ModelDescriptor: Sendable {
  /// The id results files write under `algorithm` (`logistic_regression`); also a name a spec may use.
  public let id: String
  /// Other names a spec may use, matched case-insensitively (`LR`).
  public let abbreviations: [String]
  /// The scikit-learn class this reproduces (`LogisticRegression`), for help texts and parity goldens.
  public let scikitLearnName: String
  /// The algorithm in words, for reports and messages (`logistic regression`).
  public let displayName: String
  /// The label a model gets when the spec gives none (`LR`).
  public let defaultLabel: String
  /// Whether a spec without `models:` compares it. Only built-in models may say so (`ModelRegistry.defaultSet`).
  public let inDefaultSet: Bool
  /// The type that implements it: its settings schema, parsing and fitting.
  public let classifierType: any Classifier.Type
  /// How it behaves when fitted, for scheduling, sharing and the conformance suite.
  public let traits: ModelTraits
  /// How its cross-validation folds (and the audit's refits) are fitted.
  public let foldStrategy: FoldStrategy
  /// What its stored numbers, and so its exported file, grow with.
  public let storedSize: StoredSize
  /// The shape every fit of it takes in an exported file (`FittedClassifier.exportForm()`). The formats it exports
  /// to follow from it (`ExportFormats.formats(for:)` in BenchbookExport: each format states the shapes it holds),
  /// and the conformance suite checks that its fits state this shape and agree with their file in every format.
  public let exportForm: ExportForm.Kind

  public init(
    id: String, abbreviations: [String], scikitLearnName: String, displayName: String, defaultLabel: String,
    inDefaultSet: Bool, classifierType: any Classifier.Type, traits: ModelTraits, foldStrategy: FoldStrategy,
    storedSize: StoredSize, exportForm: ExportForm.Kind
  ) {
    self.id = id
    self.abbreviations = abbreviations
    self.scikitLearnName = scikitLearnName
    self.displayName = displayName
    self.defaultLabel = defaultLabel
    self.inDefaultSet = inDefaultSet
    self.classifierType = classifierType
    self.traits = traits
    self.foldStrategy = foldStrategy
    self.storedSize = storedSize
    self.exportForm = exportForm
  }

  /// Every name that selects this algorithm: its id, then its abbreviations.
  public var names: [String] { [id] + abbreviations }

  /// Whether `name` selects this algorithm (case-insensitively).
  public func isNamed(_ name: String) -> Bool {
    let wanted = name.lowercased()
    return names.contains { $0.lowercased() == wanted }
  }

  /// The settings a spec may give, with their types, defaults and whether they may be searched.
  public var settingsSchema: [SettingDescriptor] { classifierType.settingsSchema }

  /// The schema entry a spec key names, by scikit-learn name or alias.
  public func setting(named key: String) -> SettingDescriptor? { classifierType.setting(named: key) }

  /// Builds a configuration from spec settings (scikit-learn names).
  ///
  /// - Throws: `SettingError` naming the key of an unknown or invalid setting.
  public func makeClassifier(settings: inout SettingsReader) throws(SettingError) -> any Classifier {
    try classifierType.init(settings: &settings)
  }

  /// The configuration with every setting at its default.
  public func defaultClassifier() -> any Classifier {
    var settings = SettingsReader()
    do {
      return try makeClassifier(settings: &settings)
    } catch {
      preconditionFailure("\(id) rejects its own defaults: \(error.message)")
    }
  }

  /// What is inconsistent in this descriptor: a fold strategy or shared work the type cannot serve, a blank
  /// name. Empty when sound; `ModelRegistry.register` and the conformance suite check it.
  public var problems: [String] {
    var problems: [String] = []
    if id.isEmpty || defaultLabel.isEmpty || displayName.isEmpty { problems.append("\(id): a name is empty") }
    if Set(names).count != names.count { problems.append("\(id): names repeat: \(names)") }
    if !foldStrategy.isServed(by: classifierType) {
      problems.append("\(id): fold strategy \(foldStrategy) needs a protocol \(classifierType) does not adopt")
    }
    problems += traits.sharedWork.unserved(by: classifierType).map { "\(id): shared work \($0) is not served" }
    if traits.workingCopies < 1 || traits.relativeCost < 1 {
      problems.append("\(id): working copies and relative cost are at least 1")
    }
    return problems
  }
}

extension ModelDescriptor: Equatable, Hashable {
  /// Descriptors are one per algorithm: the id identifies them.
  public static func == (a: ModelDescriptor, b: ModelDescriptor) -> Bool { a.id == b.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension ModelDescriptor: CustomStringConvertible {
  /// The id results files write.
  public var description: String { id }
}
