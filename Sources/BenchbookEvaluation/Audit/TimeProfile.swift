import BenchbookData

/// How the data and the folds sit in time, for the report's audit plots: the
/// class make-up of equal stretches of time, and the stretches each fold's
/// training and test rows cover.
public struct TimeProfile: Codable, Sendable, Hashable {
  public var column: String
  public var classes: [String]
  public var bins: [Bin]
  /// At most `maximumFolds` folds, in plan order.
  public var folds: [FoldSpans]

  public static let binCount = 52
  public static let spanResolution = 200
  public static let maximumFolds = 20

  /// One stretch of time: rows and rows per class (in `classes` order).
  public struct Bin: Codable, Sendable, Hashable {
    /// Seconds since 1970 (inclusive start, exclusive end except for the last bin).
    public var start: Double
    public var end: Double
    public var rows: Int
    public var classCounts: [Int]
  }

  /// The time spans a fold's training and test rows cover, each `[first, last]` in seconds.
  public struct FoldSpans: Codable, Sendable, Hashable {
    public var fold: Int
    public var `repeat`: Int
    public var train: [[Double]]
    public var test: [[Double]]
  }

  /// Builds the profile; `nil` without a time column.
  public static func make(_ context: AuditContext) -> TimeProfile? {
    guard let column = context.timeColumn, let time = context.dataset.time, let first = time.min(),
      let last = time.max()
    else { return nil }
    let dataset = context.dataset
    let width = (last - first) / Double(binCount)
    func bin(_ t: Double, _ count: Int, _ step: Double) -> Int {
      step > 0 ? min(count - 1, Int((t - first) / step)) : 0
    }
    var bins = (0..<(width > 0 ? binCount : 1)).map { index in
      Bin(
        start: first + Double(index) * width, end: width > 0 ? first + Double(index + 1) * width : last, rows: 0,
        classCounts: [Int](repeating: 0, count: dataset.classes.count))
    }
    for (row, t) in time.enumerated() {
      let index = bin(t, bins.count, width)
      bins[index].rows += 1
      bins[index].classCounts[dataset.labels[row]] += 1
    }
    if let lastIndex = bins.indices.last { bins[lastIndex].end = last }

    let step = (last - first) / Double(spanResolution)
    let slots = step > 0 ? spanResolution : 1
    func spans(_ rows: RowIndices) -> [[Double]] {
      var low = [Double](repeating: .infinity, count: slots)
      var high = [Double](repeating: -.infinity, count: slots)
      rows.forEachRow { row in
        let t = time[row]
        let index = bin(t, slots, step)
        low[index] = min(low[index], t)
        high[index] = max(high[index], t)
      }
      var result: [[Double]] = []
      var index = 0
      while index < slots {
        guard low[index].isFinite else {
          index += 1
          continue
        }
        let start = low[index]
        var end = high[index]
        while index + 1 < slots && low[index + 1].isFinite {
          index += 1
          end = high[index]
        }
        result.append([start, end])
        index += 1
      }
      return result
    }
    let folds = context.plan.folds.prefix(maximumFolds).map {
      FoldSpans(fold: $0.index, repeat: $0.repeatIndex, train: spans($0.train), test: spans($0.test))
    }
    return TimeProfile(column: column, classes: dataset.classes, bins: bins, folds: folds)
  }
}
