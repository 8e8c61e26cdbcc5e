/// What to read and how to turn it into a design matrix and labels: the data
/// half of an experiment spec, with every part located in the spec so errors
/// can point there.
public struct DatasetDefinition: Sendable, Hashable {
  /// The CSV (`.csv` or gzip-compressed `.csv.gz`; `.tsv` too), as an absolute path.
  public var path: String
  /// Where the path was written in the spec.
  public var pathLocation: SourceLocation
  /// How the file is written: delimiter, decimal separator, header.
  public var dialect: CSVDialect
  public var missing: MissingPolicy
  public var target: TargetDefinition
  /// The features in order; with `allExcept`, the ones listed besides (`also:`), which follow the columns it takes.
  public var features: [FeatureDefinition]
  /// Every column but some, as features (`features: {all_except: […]}`); resolved against the header when loading.
  public var allExcept: AllColumnsExcept?
  /// The column that orders rows in time, if any.
  public var time: ColumnReference?
  /// The column whose values group rows for group-aware resampling (`resampling.groups`), if any: read as text,
  /// never as a feature unless the spec also lists it as one.
  public var groups: ColumnReference?
  /// When each row's prediction is made, for comparison with features' `availableAt`.
  /// Read for the leak audit only: a missing value never drops a row.
  public var predictAt: AvailabilityTime?
  /// Declared timestamp formats by column: every use of the column as times parses it so.
  public var timeFormats: [String: DeclaredTimestampFormat]
  /// The imputation of every column feature without its own (`preprocess: [{impute: …}]`); `nil` when the spec
  /// imputes nothing, or only the features that declare their own.
  public var imputation: Imputation?

  /// - Parameter dialect: by default what the path's name implies (`CSVDialect(path:)`).
  public init(
    path: String, pathLocation: SourceLocation, missing: MissingPolicy = .error,
    target: TargetDefinition, features: [FeatureDefinition], time: ColumnReference? = nil,
    predictAt: AvailabilityTime? = nil, dialect: CSVDialect? = nil, allExcept: AllColumnsExcept? = nil,
    timeFormats: [String: DeclaredTimestampFormat] = [:], imputation: Imputation? = nil,
    groups: ColumnReference? = nil
  ) {
    self.path = path
    self.pathLocation = pathLocation
    self.dialect = dialect ?? CSVDialect(path: path)
    self.missing = missing
    self.target = target
    self.features = features
    self.allExcept = allExcept
    self.time = time
    self.predictAt = predictAt
    self.timeFormats = timeFormats
    self.imputation = imputation
    self.groups = groups
  }

  /// The imputation that fills `feature`'s missing values: its own, else the spec's; `nil` for an expression
  /// (its inputs follow the missing-value policy) and when nothing imputes.
  public func imputation(of feature: FeatureDefinition) -> Imputation? {
    guard case .column = feature.source else { return nil }
    return feature.impute ?? imputation
  }
}

/// What to do with a row whose used column is missing (empty, `NA`, `NaN`, `null`).
public enum MissingPolicy: String, Sendable, Hashable, Codable, CaseIterable {
  /// Stop with an error naming the row and column.
  case error
  /// Drop the row and count it.
  case drop
}

/// A column named in the spec, with where it was named.
public struct ColumnReference: Sendable, Hashable {
  public var column: String
  public var location: SourceLocation

  public init(column: String, location: SourceLocation) {
    self.column = column
    self.location = location
  }
}

/// The target column, optionally binarised by a comparison (`> 15`).
public struct TargetDefinition: Sendable, Hashable {
  public var column: ColumnReference
  public var when: Threshold?

  public init(column: ColumnReference, when: Threshold? = nil) {
    self.column = column
    self.when = when
  }
}

/// `value op threshold` → class "1", else class "0".
public struct Threshold: Sendable, Hashable, Codable, CustomStringConvertible {
  public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
    case greater = ">"
    case greaterOrEqual = ">="
    case less = "<"
    case lessOrEqual = "<="
    case equal = "=="
  }

  public var comparison: Comparison
  public var value: Double

  public init(_ comparison: Comparison, _ value: Double) {
    self.comparison = comparison
    self.value = value
  }

  public func holds(for x: Double) -> Bool {
    switch comparison {
    case .greater: x > value
    case .greaterOrEqual: x >= value
    case .less: x < value
    case .lessOrEqual: x <= value
    case .equal: x == value
    }
  }

  public var description: String { "\(comparison.rawValue) \(value)" }
}

/// One model input as the spec declares it.
public struct FeatureDefinition: Sendable, Hashable {
  public enum Source: Sendable, Hashable {
    /// A column read as it is.
    case column(String)
    /// Arithmetic over columns and timestamp parts, e.g. `deadline - launched_at`, `hour(time_hour)`.
    case expression(String)
  }

  /// The feature's name in results and reports.
  public var name: String
  public var source: Source
  /// Declared type; `nil` infers numeric or categorical from the values.
  public var type: FeatureType?
  public var location: SourceLocation
  /// When the feature becomes known, as the spec declares it (`known:`); `nil` when not declared.
  public var known: FeatureAvailability?
  /// When each row's value becomes known (`available_at:`), compared with the spec's `predictAt`.
  public var availableAt: AvailabilityTime?
  /// The feature's own imputation (`impute:` under its entry), ahead of the spec's.
  public var impute: Imputation?

  public init(
    name: String, source: Source, type: FeatureType? = nil, location: SourceLocation,
    known: FeatureAvailability? = nil, availableAt: AvailabilityTime? = nil, impute: Imputation? = nil
  ) {
    self.name = name
    self.source = source
    self.type = type
    self.location = location
    self.known = known
    self.availableAt = availableAt
    self.impute = impute
  }
}

public enum FeatureType: String, Sendable, Hashable, Codable, CaseIterable {
  case numeric
  /// One-hot encoded over the categories of the whole dataset.
  case categorical
}

extension FeatureType: CustomStringConvertible {
  public var description: String { rawValue }
}
