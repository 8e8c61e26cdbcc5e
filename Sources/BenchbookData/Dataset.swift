/// A loaded experiment dataset: the design matrix, the labels, and what a
/// report needs to describe them.
public struct Dataset: Sendable {
  /// Encoded inputs, one row per kept data row; categorical features take one
  /// column per category.
  public var x: Matrix
  /// One name per column of `x`: the feature's name, or `feature=category`.
  public var columnNames: [String]
  /// One entry per spec feature, in spec order.
  public var features: [FeatureSummary]
  /// Class index of each row, into `classes`.
  public var labels: [Int]
  /// Class labels as written in the data (`"0"`, `"1"` when binarised), in
  /// scikit-learn's order: numeric labels by value, text labels by code point.
  public var classes: [String]
  /// Seconds since 1970 of each row, when the spec declares a time column.
  public var time: [Double]?
  /// Each row's group (`resampling.groups`), numbered `0..<groupCount` in the order of the groups' text by UTF-8
  /// bytes, as `numpy.unique` orders strings; `nil` when the spec groups nothing.
  public var groups: [Int]?
  /// The physical CSV line (1-based, header is line 1) of each kept row.
  public var lineNumbers: LineNumbers
  public var provenance: DataProvenance
  /// Seconds since 1970 at which each row's prediction is made (`predict_at`); `NaN` where unknown.
  public var predictAt: [Double]?
  /// Seconds since 1970 at which each row's value of a feature becomes known, by feature name
  /// (`available_at`); `NaN` where unknown.
  public var availableAt: [String: [Double]]

  public init(
    x: Matrix, columnNames: [String], features: [FeatureSummary], labels: [Int], classes: [String],
    time: [Double]?, lineNumbers: LineNumbers, provenance: DataProvenance, predictAt: [Double]? = nil,
    availableAt: [String: [Double]] = [:], groups: [Int]? = nil
  ) {
    self.x = x
    self.columnNames = columnNames
    self.features = features
    self.labels = labels
    self.classes = classes
    self.time = time
    self.lineNumbers = lineNumbers
    self.provenance = provenance
    self.predictAt = predictAt
    self.availableAt = availableAt
    self.groups = groups
  }
}

/// Where the data came from and what was dropped on the way.
public struct DataProvenance: Sendable, Hashable, Codable {
  public var path: String
  /// SHA-256 of the file's bytes as stored (compressed when `.gz`), lowercase hex.
  public var sha256: String
  /// Data rows in the file (header excluded).
  public var rowsRead: Int
  /// Rows dropped for a missing value, by column name.
  public var droppedByColumn: [String: Int]
  public var droppedRows: Int
  /// The first column, skipped because it holds R's or pandas' row names; `nil` when there was none.
  public var rowNames: RowNamesColumn?

  public init(
    path: String, sha256: String, rowsRead: Int, droppedByColumn: [String: Int], droppedRows: Int,
    rowNames: RowNamesColumn? = nil
  ) {
    self.path = path
    self.sha256 = sha256
    self.rowsRead = rowsRead
    self.droppedByColumn = droppedByColumn
    self.droppedRows = droppedRows
    self.rowNames = rowNames
  }
}

/// One spec feature as loaded: its type, its columns in `x`, and a description.
public struct FeatureSummary: Sendable, Hashable, Codable {
  public var name: String
  public var type: FeatureType
  /// Columns of `Dataset.x` this feature occupies (one, or one per category).
  public var columns: Range<Int>
  /// Smallest and largest value over kept rows (numeric features).
  public var minimum: Double?
  public var maximum: Double?
  /// Categories in column order (categorical features).
  public var categories: [String]?
  /// Missing values over all rows read, before any dropping.
  public var missingCount: Int
  /// How the cells left missing (`NaN` in `Dataset.x`) are filled on each training fold; `nil` when the feature
  /// is not imputed, and then no cell of it is missing.
  public var imputation: Imputation?

  public init(
    name: String, type: FeatureType, columns: Range<Int>, minimum: Double? = nil, maximum: Double? = nil,
    categories: [String]? = nil, missingCount: Int, imputation: Imputation? = nil
  ) {
    self.name = name
    self.type = type
    self.columns = columns
    self.minimum = minimum
    self.maximum = maximum
    self.categories = categories
    self.missingCount = missingCount
    self.imputation = imputation
  }
}
