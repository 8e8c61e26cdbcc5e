import BenchbookData
import Foundation

/// scikit-learn's `StratifiedGroupKFold(n_splits)`, unshuffled: whole groups to folds, chosen so each fold's class
/// make-up stays close to the data's. Groups are placed in order of how unevenly their rows spread over the classes
/// (most uneven first), each into the fold that then leaves the classes' shares most even across folds (of folds
/// about as even, the one with fewest rows).
public struct StratifiedGroupKFold: InnerResampling, GroupedResampling, Hashable {
  public static let id = "stratified-group-kfold"
  public static let keys = ["folds", "groups"]
  public static let ordersByTime = false

  public var folds: Int
  public var groupsColumn: ColumnReference
  /// The spec's seed: the unshuffled method draws nothing, but the definition fingerprint records it.
  public var seed: UInt64
  public var foldsLocation: SourceLocation?
  public var methodLocation: SourceLocation?

  public init(
    folds: Int = 5, groups: ColumnReference, seed: UInt64 = 0, foldsLocation: SourceLocation? = nil,
    methodLocation: SourceLocation? = nil
  ) {
    self.folds = folds
    self.groupsColumn = groups
    self.seed = seed
    self.foldsLocation = foldsLocation
    self.methodLocation = methodLocation
  }

  public init(settings: ResamplingSettings) throws(SpecError) {
    self.init(
      folds: try settings.int("folds", atLeast: 2) ?? 5, groups: try settings.groups(for: Self.id),
      seed: try settings.seed(), foldsLocation: settings.location(of: "folds"),
      methodLocation: settings.methodLocation)
  }

  public var splitCount: Int { folds }

  public func plan(rowCount n: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String)
    throws(SpecError) -> FoldPlan
  {
    let groups = try requireGroups(groups, rowCount: n, specPath: specPath)
    func fail(_ message: String) -> SpecError { groupsError(message, folds: foldsLocation, specPath: specPath) }
    guard folds <= n else { throw fail("\(folds) folds need at least \(folds) rows; the data has \(n)") }
    var warnings: [String] = []
    let assignment = try Self.assignment(
      labels: labels, groups: groups, k: folds, column: groupsColumn.column, place: "the data", fail: fail,
      warn: { warnings.append(fail($0).description) })
    var plan = FoldPlan(folds: FoldPlan.foldsFromAssignment(assignment, k: folds))
    plan.warnings = warnings
    return plan
  }

  /// Each position's fold. `labels` and `groups` are per position; classes and groups absent from them are not
  /// counted, as `numpy.unique` of the rows given would not list them.
  static func assignment(
    labels: [Int], groups: [Int], k: Int, column: String, place: String, fail: (String) -> SpecError,
    warn: (String) -> Void
  ) throws(SpecError) -> [Int] {
    let (classOf, classCount) = GroupCodes.compact(labels)
    var classSizes = [Double](repeating: 0, count: classCount)
    for c in classOf { classSizes[c] += 1 }
    if classSizes.allSatisfy({ Int($0) < k }) {
      throw fail(
        "\(k) stratified group folds need a class with at least \(k) rows; the largest in \(place) has "
          + "\(Int(classSizes.max() ?? 0)) (scikit-learn refuses alike)")
    }
    if let smallest = classSizes.min(), Int(smallest) < k {
      warn(
        "the least populated class has only \(Int(smallest)) row\(smallest == 1 ? "" : "s"), fewer than the \(k) "
          + "folds (scikit-learn warns alike)")
    }
    let (groupOf, groupCount) = GroupCodes.compact(groups)
    guard k <= groupCount else {
      throw fail(GroupCodes.tooFewGroups(k: k, groupCount: groupCount, column: column, place: place))
    }
    // Rows of each class in each group, a row per group.
    var perGroup = [Double](repeating: 0, count: groupCount * classCount)
    for (c, g) in zip(classOf, groupOf) { perGroup[g * classCount + c] += 1 }
    let spread = (0..<groupCount).map { g in
      NumPySums.populationStd((0..<classCount).map { perGroup[g * classCount + $0] })
    }
    // numpy's stable argsort of −spread: most uneven first, ties in group order.
    let order = (0..<groupCount).sorted { spread[$0] > spread[$1] || (spread[$0] == spread[$1] && $0 < $1) }

    var perFold = [Double](repeating: 0, count: k * classCount)
    var foldOfGroup = [Int](repeating: 0, count: groupCount)
    var shares = [Double](repeating: 0, count: k)
    var stds = [Double](repeating: 0, count: classCount)
    for g in order {
      var best = -1
      var bestEvenness = Double.infinity
      var bestRows = Double.infinity
      for fold in 0..<k {
        for c in 0..<classCount { perFold[fold * classCount + c] += perGroup[g * classCount + c] }
        for c in 0..<classCount {
          for f in 0..<k { shares[f] = perFold[f * classCount + c] / classSizes[c] }
          stds[c] = NumPySums.populationStdAcrossRows(shares)
        }
        for c in 0..<classCount { perFold[fold * classCount + c] -= perGroup[g * classCount + c] }
        let evenness = NumPySums.sum(stds) / Double(classCount)
        var rows = 0.0
        for c in 0..<classCount { rows += perFold[fold * classCount + c] }
        if evenness < bestEvenness || (NumPySums.isClose(evenness, bestEvenness) && rows < bestRows) {
          best = fold
          bestEvenness = evenness
          bestRows = rows
        }
      }
      precondition(best >= 0, "a fold is chosen for every group")
      for c in 0..<classCount { perFold[best * classCount + c] += perGroup[g * classCount + c] }
      foldOfGroup[g] = best
    }
    let assignment = groupOf.map { foldOfGroup[$0] }
    var filled = [Bool](repeating: false, count: k)
    for fold in assignment { filled[fold] = true }
    if let empty = filled.firstIndex(of: false) {
      throw fail("stratified group fold \(empty + 1) of \(k) would test no rows in \(place); use fewer folds")
    }
    return assignment
  }

  public var definitionText: String {
    ResamplingSettingsText.line(folds: folds, seed: seed, groups: groupsColumn.column)
  }

  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(method: Self.id, folds: foldsPerRepeat, shuffle: false, groups: groupsColumn.column)
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    "\(r.folds)-fold stratified group k-fold by `\(r.groups ?? "?")`: every row of a group is in the same test "
      + "fold, and groups are placed to keep each fold's class make-up close to the data's (scikit-learn's "
      + "StratifiedGroupKFold, unshuffled)."
  }

  /// `StratifiedGroupKFold(k)` of the training rows by their own groups and classes.
  public static func innerFolds(
    _ k: Int, of rows: RowIndices, labels: [Int], classCount: Int, time: [Double]?, groups: [Int]?, place: String,
    fail: (String) -> SpecError
  ) throws(SpecError) -> [Fold] {
    guard let groups else {
      throw fail("stratified group k-fold inner folds need the groups column of `resampling.groups`")
    }
    let assignment = try assignment(
      labels: rows.gathering(labels), groups: rows.gathering(groups), k: k, column: "the groups column",
      place: place, fail: fail, warn: { _ in })
    return FoldPlan.foldsFromAssignment(assignment, k: k, of: rows)
  }

  public static func describeInner(folds: Int) -> String { "\(folds)-fold stratified group k-fold" }
}

/// numpy's float64 sums as `StratifiedGroupKFold` meets them, summed in numpy's order so ties break alike.
enum NumPySums {
  /// `numpy.add.reduce` of a contiguous array: its pairwise summation (eight running sums over blocks of up to
  /// 128, halves recursively above), which for fewer than eight values is a plain left-to-right sum.
  static func sum(_ values: [Double]) -> Double {
    values.withUnsafeBufferPointer { pairwise($0[...]) }
  }

  private static func pairwise(_ a: Slice<UnsafeBufferPointer<Double>>) -> Double {
    let n = a.count
    let start = a.startIndex
    if n < 8 {
      // numpy starts from −0.0 so an all −0.0 sum stays −0.0; +0.0 gives every other sum alike.
      var total = -0.0
      for i in a.indices { total += a[i] }
      return total
    }
    if n <= 128 {
      var r = (0..<8).map { a[start + $0] }
      var i = 8
      while i < n - n % 8 {
        for j in 0..<8 { r[j] += a[start + i + j] }
        i += 8
      }
      var total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
      while i < n {
        total += a[start + i]
        i += 1
      }
      return total
    }
    var half = n / 2
    half -= half % 8
    return pairwise(a[start..<(start + half)]) + pairwise(a[(start + half)...])
  }

  /// `numpy.std` (ddof 0) of a contiguous row: the mean by `sum`, then the mean square deviation by `sum`.
  static func populationStd(_ values: [Double]) -> Double {
    let n = Double(values.count)
    let mean = sum(values) / n
    return (sum(values.map { ($0 - mean) * ($0 - mean) }) / n).squareRoot()
  }

  /// `numpy.std(axis=0)` of one column of a row-major matrix, given as the column's values: numpy adds rows one
  /// after another there, so a plain left-to-right sum.
  static func populationStdAcrossRows(_ values: [Double]) -> Double {
    let n = Double(values.count)
    var total = 0.0
    for value in values { total += value }
    let mean = total / n
    var squares = 0.0
    for value in values { squares += (value - mean) * (value - mean) }
    return (squares / n).squareRoot()
  }

  /// `numpy.isclose(a, b)` with its defaults (relative 1e-5, absolute 1e-8); infinities are close only to themselves.
  static func isClose(_ a: Double, _ b: Double) -> Bool {
    if a.isInfinite || b.isInfinite { return a == b }
    return abs(a - b) <= 1e-8 + 1e-5 * abs(b)
  }
}
