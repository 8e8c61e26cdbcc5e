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
  /// Slots a fold's spans are found in; at most 256, so a row's slot takes a byte.
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
    // Counted flat, then copied into the bins: a nested array updated in place pays a uniqueness check a row.
    let classCount = dataset.classes.count
    var counts = [Int](repeating: 0, count: bins.count * classCount)
    for (row, t) in time.enumerated() { counts[bin(t, bins.count, width) * classCount + dataset.labels[row]] += 1 }
    for index in bins.indices {
      bins[index].classCounts = Array(counts[(index * classCount)..<((index + 1) * classCount)])
      bins[index].rows = bins[index].classCounts.reduce(0, +)
    }
    if let lastIndex = bins.indices.last { bins[lastIndex].end = last }

    let step = (last - first) / Double(spanResolution)
    let slots = step > 0 ? spanResolution : 1
    // Each row's slot, found once for every fold (a division a row, ten or twenty times over, was most of the work).
    precondition(slots <= 256, "a slot is stored in a byte")
    let slotOfRow = time.map { UInt8(bin($0, slots, step)) }
    func spans(_ rows: RowIndices) -> [[Double]] {
      var low = [Double](repeating: .infinity, count: slots)
      var high = [Double](repeating: -.infinity, count: slots)
      time.withUnsafeBufferPointer { time in
        slotOfRow.withUnsafeBufferPointer { slotOfRow in
          low.withUnsafeMutableBufferPointer { low in
            high.withUnsafeMutableBufferPointer { high in
              rows.forEachRow { row in
                let t = time[row]
                let index = Int(slotOfRow[row])
                low[index] = min(low[index], t)
                high[index] = max(high[index], t)
              }
            }
          }
        }
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
