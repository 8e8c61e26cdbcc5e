import BenchbookData

/// Each feature's rows sorted once by their float32 value, for decision trees fitted on many subsets of the
/// same rows (the folds of one model): a fit filters these lists to its own rows, in one pass per feature,
/// instead of gathering and sorting them (`TreeBuilder.build(presorted:rows:labels:classCount:)`).
///
/// Filtering keeps the order, so a fit's lists are sorted by value as its own sort would leave them; rows
/// of equal value may come in another order, which no split can tell apart (a split falls only between
/// distinct values), so the tree grown is the same, node for node.
///
/// 4 bytes a row and feature for the rows; a feature's values take 4 more, or, when it has at most half as
/// many distinct values as rows (months, hours, distances), 8 bytes a distinct value, as runs.
public struct FeaturePresort: Sendable {
  /// A set of rows, handed over run by run: `subset { run in … }` visits them in order. A closure rather than
  /// a generic sequence, so that the filter is compiled once, for concrete types, whatever holds the rows.
  public typealias RowRuns = (_ visit: (Range<Int>) -> Void) -> Void

  /// One feature's values in sorted order.
  enum Values: Sendable {
    /// Value by value.
    case each([Float])
    /// Distinct values, each with the end of its run of positions.
    case runs(values: [Float], ends: [UInt32])
  }

  public let rowCount: Int
  public let featureCount: Int
  /// Feature-major: feature f's rows in ascending order of value, ties by row.
  let rows: [UInt32]
  /// Each feature's values, in the same order.
  let values: [Values]

  /// `nil` when a value is not finite in float32, which a tree's own fit reports with its place, or when
  /// there are too many rows to number in 32 bits.
  public init?(_ x: Matrix) {
    let n = x.rows
    let featureCount = x.columns
    guard n > 0, n < Int(UInt32.max) else { return nil }
    var rows = [UInt32](repeating: 0, count: n * featureCount)
    var values: [Values] = []
    var keys = [UInt64](repeating: 0, count: n)
    var spare = [UInt64](repeating: 0, count: n)
    var sorted = [Float](repeating: 0, count: n)
    for f in 0..<featureCount {
      for i in 0..<n {
        let value = Float(x.values[i * featureCount + f])
        guard value.isFinite else { return nil }
        keys[i] = UInt64(TreeBuilder.orderedBits(value)) << 32 | UInt64(i)
      }
      TreeBuilder.sortByHighHalf(&keys, spare: &spare)
      var distinct = 1
      for p in 0..<n {
        rows[f * n + p] = UInt32(truncatingIfNeeded: keys[p])
        sorted[p] = TreeBuilder.float(orderedBits: UInt32(truncatingIfNeeded: keys[p] >> 32))
        if p > 0 && sorted[p].bitPattern != sorted[p - 1].bitPattern { distinct += 1 }
      }
      values.append(2 * distinct <= n ? Self.runs(of: sorted) : .each(sorted))
    }
    rowCount = n
    self.featureCount = featureCount
    self.rows = rows
    self.values = values
  }

  /// Sorted values as runs of equal bits (−0 and +0 stay apart, as a fit's own sort keeps them).
  private static func runs(of sorted: [Float]) -> Values {
    var values: [Float] = []
    var ends: [UInt32] = []
    for (p, value) in sorted.enumerated() {
      if let last = values.last, last.bitPattern == value.bitPattern { continue }
      if !values.isEmpty { ends.append(UInt32(p)) }
      values.append(value)
    }
    ends.append(UInt32(sorted.count))
    return .runs(values: values, ends: ends)
  }

  /// The sorted lists a fit on `subset` grows from: per feature, the subset's values in order, and entries
  /// packing each row's position in `subset` (low `labelShift` bits) with its label; and the subset's rows in
  /// each class.
  /// - Parameters:
  ///   - subset: calls its argument with the subset's dataset rows, run by run, each row at most once.
  ///   - labelOfRow: the label of every row the matrix had, by row (the dataset's own, not a copy per fit);
  ///     the subset's are in `0..<classCount`.
  ///   - labelShift: leaves `Entry.max` unused (`TreeBuilder.narrowLabelShift`), so it can mark rows left out.
  func lists<Entry: FixedWidthInteger & UnsignedInteger>(
    of subset: RowRuns, labelOfRow: [Int], classCount: Int, entry: Entry.Type, labelShift: Int
  ) -> (values: [Float], entries: [Entry], classCounts: [Int]) {
    precondition(labelOfRow.count == rowCount, "one label per row of the sorted matrix")
    let excluded = Entry.max
    var entryOfRow = [Entry](repeating: excluded, count: rowCount)
    var classCounts = [Int](repeating: 0, count: classCount)
    var count = 0
    subset { run in
      for row in run {
        precondition(entryOfRow[row] == excluded, "row \(row) appears twice in a fit's rows")
        let label = labelOfRow[row]
        precondition(label >= 0 && label < classCount, "label \(label) outside 0..<\(classCount)")
        classCounts[label] += 1
        entryOfRow[row] = Entry(label) << labelShift | Entry(count)
        count += 1
      }
    }
    let n = count
    let total = n * featureCount
    // One spare slot: each row is written before it is known to be kept, so the last feature's scan may
    // write one past its end.
    var entries = [Entry]()
    let keptValues = [Float](unsafeUninitializedCapacity: total + 1) { keptValues, initialized in
      entries = [Entry](unsafeUninitializedCapacity: total + 1) { keptEntries, initializedEntries in
        entryOfRow.withUnsafeBufferPointer { entryOfRow in
          rows.withUnsafeBufferPointer { rows in
            for f in 0..<featureCount {
              var kept = f * n
              // Keeps the rows of positions `range` in this feature's list, all of value `value(p)`.
              func keep(_ range: Range<Int>, _ value: (Int) -> Float) {
                for p in range {
                  let entry = entryOfRow[Int(truncatingIfNeeded: rows[f * rowCount + p])]
                  keptEntries[kept] = entry
                  keptValues[kept] = value(p)
                  kept += entry == excluded ? 0 : 1
                }
              }
              switch values[f] {
              case .each(let each):
                each.withUnsafeBufferPointer { each in keep(0..<rowCount) { each[$0] } }
              case .runs(let distinct, let ends):
                var start = 0
                for (value, end) in zip(distinct, ends) {
                  keep(start..<Int(end)) { _ in value }
                  start = Int(end)
                }
              }
            }
          }
        }
        initializedEntries = total
      }
      initialized = total
    }
    return (keptValues, entries, classCounts)
  }
}
