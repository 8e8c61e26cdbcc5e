import BenchbookData

/// A method that keeps each group of rows (the spec's `groups:` column) to one side of every split: what reading
/// the column, writing it into the fingerprint and results, and checking the data's groups share.
public protocol GroupedResampling: ResamplingMethod {
  var groupsColumn: ColumnReference { get }
  /// Where `method` was written, for errors found once the data is known.
  var methodLocation: SourceLocation? { get }
}

extension GroupedResampling {
  public static var usesGroups: Bool { true }
  public var groups: ColumnReference? { groupsColumn }

  /// The rows' groups, which the data loaded for the spec's `groups:` column.
  /// - Throws: `SpecError` at `groups:` when the caller passed none.
  func requireGroups(_ groups: [Int]?, rowCount: Int, specPath: String) throws(SpecError) -> [Int] {
    guard let groups, groups.count == rowCount else {
      throw SpecError(
        "\(Self.id) resampling needs each row's group from the column '\(groupsColumn.column)'",
        at: groupsColumn.location, key: "resampling.groups")
    }
    return groups
  }

  /// An error at the spec's `folds` (else `method`): the data's groups cannot be split so.
  func groupsError(_ message: String, folds: SourceLocation?, specPath: String) -> SpecError {
    FoldPlan.foldsError(message, at: folds ?? methodLocation, specPath: specPath)
  }
}

/// Group numbering shared by the group methods.
enum GroupCodes {
  /// The groups of `positions` (rows of a subset, in order) renumbered `0..<count` keeping their order: the numbering
  /// `numpy.unique` gives the subset's groups, since the dataset's numbers already follow the groups' text order.
  static func compact(_ groups: [Int]) -> (codes: [Int], count: Int) {
    guard let largest = groups.max() else { return ([], 0) }
    var present = [Bool](repeating: false, count: largest + 1)
    for group in groups { present[group] = true }
    var number = [Int](repeating: -1, count: largest + 1)
    var count = 0
    for group in 0...largest where present[group] {
      number[group] = count
      count += 1
    }
    return (groups.map { number[$0] }, count)
  }

  /// scikit-learn's `GroupKFold` (unshuffled) assignment of positions to folds: groups by size, largest first (of
  /// equal sizes, the later group first, as numpy's stable ascending sort reversed orders them), each to the fold
  /// with the fewest rows so far (the first such fold).
  static func groupKFoldAssignment(_ codes: [Int], groupCount: Int, k: Int) -> [Int] {
    var sizes = [Int](repeating: 0, count: groupCount)
    for code in codes { sizes[code] += 1 }
    let order = (0..<groupCount).sorted { sizes[$0] > sizes[$1] || (sizes[$0] == sizes[$1] && $0 > $1) }
    var load = [Int](repeating: 0, count: k)
    var foldOfGroup = [Int](repeating: 0, count: groupCount)
    for group in order {
      var lightest = 0
      for fold in 1..<k where load[fold] < load[lightest] { lightest = fold }
      load[lightest] += sizes[group]
      foldOfGroup[group] = lightest
    }
    return codes.map { foldOfGroup[$0] }
  }

  /// The error scikit-learn raises when there are fewer groups than folds, in Benchbook's words.
  static func tooFewGroups(k: Int, groupCount: Int, column: String, place: String) -> String {
    "\(k) group folds need at least \(k) distinct groups in '\(column)'; found \(groupCount) in \(place) "
      + "(scikit-learn refuses alike)"
  }
}
