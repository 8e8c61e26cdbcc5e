import BenchbookData

/// One way of splitting rows into training and test folds: read from its own keys of the spec's `resampling:`
/// section, making the folds, writing its line of the spec's definition and its keys of results.json, and describing
/// itself in the report.
///
/// Each method is one type, listed in `ResamplingRegistry`; the parser's core only finds the method by name, checks
/// every key given is one the method reads, and hands them over (`ResamplingSettings`). Adding a method is a type
/// and a line in the registry.
public protocol ResamplingMethod: Sendable {
  /// The name specs and results use (`stratified-kfold`).
  static var id: String { get }
  /// The keys of `resampling:` it reads, besides `method`, `seed` and `max_fits`, which every method takes.
  static var keys: [String] { get }
  /// Whether it orders rows by the time column, which the spec must then declare. Tuning inside such folds must
  /// not see the future either, so its inner folds order rows by time too.
  static var ordersByTime: Bool { get }
  /// Whether it keeps each group of rows (`groups:`, a column) to one side of every split, which the spec must
  /// then name.
  static var usesGroups: Bool { get }

  /// The column whose values group the rows, for a method that uses groups.
  var groups: ColumnReference? { get }

  /// Reads its keys; an error points at the key's line.
  init(settings: ResamplingSettings) throws(SpecError)

  /// Outer splits every model is fitted on: what the work limit (`max_fits`) counts.
  var splitCount: Int { get }

  /// The folds of `rowCount` rows.
  /// - Parameters:
  ///   - labels: class index per row (stratification).
  ///   - time: seconds per row (time-ordered splits sort by it; ties keep row order).
  ///   - groups: each row's group, numbered in the groups' text order (`Dataset.groups`), when the spec names a
  ///     groups column; group methods need it, the others ignore it.
  /// - Throws: `SpecError` at the spec's `folds` or `test_size` line when the data cannot be split so.
  func plan(rowCount: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String) throws(SpecError)
    -> FoldPlan

  /// Its settings as the spec's definition fingerprint writes them after the method's name
  /// (`ExperimentSpec.definitionText`): `ResamplingSettingsText.line` keeps every earlier spec's fingerprint.
  var definitionText: String { get }

  /// What results.json records of it under `resampling` (besides the plan's digest and splits).
  /// - Parameter foldsPerRepeat: the plan's folds per repeat.
  func record(foldsPerRepeat: Int) -> ResamplingSummary

  /// The sentence the report's method section opens with, from what results.json recorded.
  static func describe(_ recorded: ResamplingSummary) -> String
}

extension ResamplingMethod {
  public static var usesGroups: Bool { false }
  public var groups: ColumnReference? { nil }

  /// The folds of rows that carry no groups.
  public func plan(rowCount: Int, labels: [Int], time: [Double]?, specPath: String) throws(SpecError) -> FoldPlan {
    try plan(rowCount: rowCount, labels: labels, time: time, groups: nil, specPath: specPath)
  }
}

/// A method that can also split a training set into inner folds for tuning: in the rows' own order, unshuffled, as
/// `GridSearchCV(cv=k)` cuts `X[train]`.
public protocol InnerResampling: ResamplingMethod {
  /// `k` folds of `rows` (dataset rows, ascending); folds hold dataset rows.
  /// - Parameters:
  ///   - groups: each dataset row's group (`Dataset.groups`), when the spec names a groups column.
  ///   - place: the rows, in words ("the training rows of outer fold 3"), for errors.
  ///   - fail: the error at the spec's `tune.inner.folds`.
  static func innerFolds(
    _ k: Int, of rows: RowIndices, labels: [Int], classCount: Int, time: [Double]?, groups: [Int]?, place: String,
    fail: (String) -> SpecError
  ) throws(SpecError) -> [Fold]

  /// How the report names these inner folds: "5-fold stratified k-fold".
  static func describeInner(folds: Int) -> String
}

/// What results.json records of a resampling method under `resampling`, besides the plan's digest and splits; what
/// the report describes it from.
public struct ResamplingSummary: Sendable, Hashable {
  public var method: String
  /// Folds per repeat.
  public var folds: Int
  public var shuffle: Bool
  /// Recorded when the folds depend on it.
  public var seed: UInt64?
  public var repeats: Int?
  public var gap: Int?
  public var maxTrainSize: Int?
  public var testSize: Double?
  /// The column whose values group the rows (group methods).
  public var groups: String?

  public init(
    method: String, folds: Int, shuffle: Bool, seed: UInt64? = nil, repeats: Int? = nil, gap: Int? = nil,
    maxTrainSize: Int? = nil, testSize: Double? = nil, groups: String? = nil
  ) {
    self.method = method
    self.folds = folds
    self.shuffle = shuffle
    self.seed = seed
    self.repeats = repeats
    self.gap = gap
    self.maxTrainSize = maxTrainSize
    self.testSize = testSize
    self.groups = groups
  }
}

/// The settings part of the definition fingerprint's `resampling` line, in the one format every spec's fingerprint
/// has used: a method without one of these fields writes its old default, so fingerprints stay as they were.
public enum ResamplingSettingsText {
  public static func line(
    folds: Int = 5, shuffle: Bool = false, seed: UInt64, repeats: Int = 10, gap: Int = 0, maxTrainSize: Int? = nil,
    testSize: Double? = nil,
    groups: String? = nil
  ) -> String {
    "folds=\(folds) shuffle=\(shuffle) seed=\(seed) repeats=\(repeats) gap=\(gap) "
      + "max_train_size=\(maxTrainSize.map(String.init) ?? "-") test_size=\(testSize.map { "\($0)" } ?? "-")"
      // Only group methods add it, so no earlier spec's line changes.
      + (groups.map { " groups=\($0)" } ?? "")
  }
}
