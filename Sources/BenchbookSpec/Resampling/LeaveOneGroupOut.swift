import BenchbookData

/// scikit-learn's `LeaveOneGroupOut()`: one split per group, testing that group's rows and training on all others,
/// the splits in the order of the groups' text (as `numpy.unique` orders strings).
public struct LeaveOneGroupOut: GroupedResampling, Hashable {
  public static let id = "leave-one-group-out"
  public static let keys = ["groups"]
  public static let ordersByTime = false

  public var groupsColumn: ColumnReference
  /// The spec's seed: the method draws nothing, but the definition fingerprint records it.
  public var seed: UInt64
  public var methodLocation: SourceLocation?

  public init(groups: ColumnReference, seed: UInt64 = 0, methodLocation: SourceLocation? = nil) {
    self.groupsColumn = groups
    self.seed = seed
    self.methodLocation = methodLocation
  }

  public init(settings: ResamplingSettings) throws(SpecError) {
    self.init(
      groups: try settings.groups(for: Self.id), seed: try settings.seed(), methodLocation: settings.methodLocation)
  }

  /// The splits are as many as the data's groups, unknown before it is read: the work limit (`max_fits`) counts
  /// the fewest there can be.
  public var splitCount: Int { 2 }

  public func plan(rowCount n: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String)
    throws(SpecError) -> FoldPlan
  {
    let groups = try requireGroups(groups, rowCount: n, specPath: specPath)
    let (codes, count) = GroupCodes.compact(groups)
    guard count >= 2 else {
      throw SpecError(
        "leave-one-group-out needs at least 2 distinct groups in '\(groupsColumn.column)'; the data has \(count) "
          + "(scikit-learn refuses alike)", at: groupsColumn.location, key: "resampling.groups")
    }
    return FoldPlan(folds: FoldPlan.foldsFromAssignment(codes, k: count))
  }

  public var definitionText: String { ResamplingSettingsText.line(seed: seed, groups: groupsColumn.column) }

  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(method: Self.id, folds: foldsPerRepeat, shuffle: false, groups: groupsColumn.column)
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    "Leave one group out by `\(r.groups ?? "?")`: \(r.folds) splits, each testing one group's rows on a model "
      + "trained on every other group's (scikit-learn's LeaveOneGroupOut)."
  }
}
