import BenchbookData

/// scikit-learn's `GroupKFold(n_splits)`, unshuffled: each group of rows is tested in exactly one fold, the groups
/// dealt largest first to the fold with the fewest rows so far.
public struct GroupKFold: InnerResampling, GroupedResampling, Hashable {
  public static let id = "group-kfold"
  public static let keys = ["folds", "groups"]
  public static let ordersByTime = false

  public var folds: Int
  public var groupsColumn: ColumnReference
  /// The spec's seed: the unshuffled deal draws nothing, but the definition fingerprint records it.
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
    guard folds <= n else {
      throw groupsError(
        "\(folds) folds need at least \(folds) rows; the data has \(n)", folds: foldsLocation, specPath: specPath)
    }
    let (codes, count) = GroupCodes.compact(groups)
    guard folds <= count else {
      throw groupsError(
        GroupCodes.tooFewGroups(k: folds, groupCount: count, column: groupsColumn.column, place: "the data"),
        folds: foldsLocation, specPath: specPath)
    }
    let assignment = GroupCodes.groupKFoldAssignment(codes, groupCount: count, k: folds)
    return FoldPlan(folds: FoldPlan.foldsFromAssignment(assignment, k: folds))
  }

  public var definitionText: String {
    ResamplingSettingsText.line(folds: folds, seed: seed, groups: groupsColumn.column)
  }

  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(method: Self.id, folds: foldsPerRepeat, shuffle: false, groups: groupsColumn.column)
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    "\(r.folds)-fold group k-fold by `\(r.groups ?? "?")`: every row of a group is in the same test fold, never on "
      + "both sides of a split; groups are dealt largest first to the fold with the fewest rows (scikit-learn's "
      + "GroupKFold, unshuffled)."
  }

  /// `GroupKFold(k)` of the training rows by their own groups, as `GridSearchCV(cv=GroupKFold(k)).fit(X, y,
  /// groups=g)` splits `X[train]`.
  public static func innerFolds(
    _ k: Int, of rows: RowIndices, labels: [Int], classCount: Int, time: [Double]?, groups: [Int]?, place: String,
    fail: (String) -> SpecError
  ) throws(SpecError) -> [Fold] {
    guard let groups else { throw fail("group k-fold inner folds need the groups column of `resampling.groups`") }
    let (codes, count) = GroupCodes.compact(rows.gathering(groups))
    guard k <= count else { throw fail("\(k) group inner folds need \(k) distinct groups; \(place) hold \(count)") }
    return FoldPlan.foldsFromAssignment(
      GroupCodes.groupKFoldAssignment(codes, groupCount: count, k: k), k: k, of: rows)
  }

  public static func describeInner(folds: Int) -> String { "\(folds)-fold group k-fold" }
}
