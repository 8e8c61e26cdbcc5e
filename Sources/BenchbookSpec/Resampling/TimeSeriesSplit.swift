import BenchbookData

/// scikit-learn's `TimeSeriesSplit` over rows sorted by the time column: each fold trains on the rows before its
/// test block.
public struct TimeSeriesSplit: InnerResampling, Hashable {
  public static let id = "time-series"
  public static let keys = ["folds", "gap", "max_train_size", "test_size"]
  public static let ordersByTime = true

  /// Number of splits.
  public var folds: Int
  /// Rows left out between training and test.
  public var gap: Int
  /// Keep at most this many of the latest training rows.
  public var maxTrainSize: Int?
  /// Test rows per split (`nil`: rows / (folds + 1)).
  public var testSize: Int?
  /// The spec's seed: time-series splits draw nothing, but the definition fingerprint records it.
  public var seed: UInt64
  /// Where `folds` was written, for errors found once the data is known.
  public var foldsLocation: SourceLocation?
  /// Where `test_size` was written or, when it was left to its default, where `method` was.
  public var testSizeLocation: SourceLocation?

  public init(
    folds: Int = 5, gap: Int = 0, maxTrainSize: Int? = nil, testSize: Int? = nil, seed: UInt64 = 0,
    foldsLocation: SourceLocation? = nil, testSizeLocation: SourceLocation? = nil
  ) {
    self.folds = folds
    self.gap = gap
    self.maxTrainSize = maxTrainSize
    self.testSize = testSize
    self.seed = seed
    self.foldsLocation = foldsLocation
    self.testSizeLocation = testSizeLocation
  }

  public init(settings: ResamplingSettings) throws(SpecError) {
    self.init(
      folds: try settings.int("folds", atLeast: 2) ?? 5, gap: try settings.int("gap", atLeast: 0) ?? 0,
      maxTrainSize: try settings.int("max_train_size", atLeast: 1), testSize: try settings.int("test_size", atLeast: 1),
      seed: try settings.seed(), foldsLocation: settings.location(of: "folds"),
      testSizeLocation: settings.location(of: "test_size") ?? settings.methodLocation)
  }

  public var splitCount: Int { folds }

  public func plan(rowCount n: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String) throws(SpecError)
    -> FoldPlan
  {
    guard let time else {
      throw FoldPlan.foldsError("time-series resampling needs a time column", at: foldsLocation, specPath: specPath)
    }
    // One time order shared by every fold: each fold's rows are slices of it.
    let order = (0..<n).sorted { time[$0] < time[$1] || (time[$0] == time[$1] && $0 < $1) }.map { Int32($0) }
    let k = folds
    let testSize = testSize ?? n / (k + 1)
    guard testSize >= 1, n - gap - testSize * k > 0 else {
      let message =
        "\(k) time-series splits of \(testSize) test rows with a gap of \(gap) need more than \(gap + testSize * k) rows; the data has \(n)"
      throw self.testSize == nil
        ? FoldPlan.foldsError(message, at: foldsLocation, specPath: specPath)
        : FoldPlan.testSizeError(message, at: testSizeLocation ?? foldsLocation, specPath: specPath)
    }
    return FoldPlan(
      folds: FoldPlan.forwardChaining(order, k: k, testSize: testSize, gap: gap, maxTrainSize: maxTrainSize),
      rowsInTime: order)
  }

  public var definitionText: String {
    ResamplingSettingsText.line(
      folds: folds, seed: seed, gap: gap, maxTrainSize: maxTrainSize, testSize: testSize.map(Double.init))
  }

  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(
      method: Self.id, folds: foldsPerRepeat, shuffle: false, gap: gap, maxTrainSize: maxTrainSize,
      testSize: testSize.map(Double.init))
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    var text =
      "\(r.folds) forward-chaining time-series splits: rows sorted by time, each fold trains on everything before its test block"
    if let gap = r.gap, gap > 0 { text += ", leaving a gap of \(gap) rows" }
    if let maximum = r.maxTrainSize { text += ", using at most the latest \(maximum) rows" }
    return text + "."
  }

  /// Forward chaining over the training rows in time order, so tuning never trains on the future of its own
  /// validation rows.
  public static func innerFolds(
    _ k: Int, of rows: RowIndices, labels: [Int], classCount: Int, time: [Double]?, groups: [Int]?, place: String,
    fail: (String) -> SpecError
  ) throws(SpecError) -> [Fold] {
    guard let time else { throw fail("time-series inner folds need a time column") }
    let listed = rows.map { $0 }
    let order = listed.indices.sorted {
      time[listed[$0]] < time[listed[$1]] || (time[listed[$0]] == time[listed[$1]] && $0 < $1)
    }
    let testSize = rows.count / (k + 1)
    guard testSize >= 1 else { throw fail("\(k) forward-chaining inner folds need \(k + 1) rows in \(place)") }
    return FoldPlan.forwardChaining(order.map { Int32(truncatingIfNeeded: listed[$0]) }, k: k, testSize: testSize)
  }

  public static func describeInner(folds: Int) -> String { "\(folds) forward-chaining time-series splits" }
}
