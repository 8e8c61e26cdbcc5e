import BenchbookData
import BenchbookModels
import Foundation

/// scikit-learn's `GroupShuffleSplit(n_splits=1, test_size, random_state=seed)`: a seeded share of the groups (not of
/// the rows) is tested, drawn by NumPy's `RandomState(seed).permutation` of the groups in their text order.
public struct GroupHoldout: GroupedResampling, Hashable {
  public static let id = "group-holdout"
  public static let keys = ["test_size", "groups"]
  public static let ordersByTime = false

  /// Share of the groups tested, in (0, 1); scikit-learn's default is 0.2.
  public var testSize: Double
  public var groupsColumn: ColumnReference
  /// NumPy's `RandomState` seed, so below 2³².
  public var seed: UInt64
  /// Where `test_size` was written or, when it was left to its default, where `method` was.
  public var testSizeLocation: SourceLocation?
  public var methodLocation: SourceLocation?

  public init(
    testSize: Double = 0.2, groups: ColumnReference, seed: UInt64 = 0, testSizeLocation: SourceLocation? = nil,
    methodLocation: SourceLocation? = nil
  ) {
    self.testSize = testSize
    self.groupsColumn = groups
    self.seed = seed
    self.testSizeLocation = testSizeLocation
    self.methodLocation = methodLocation
  }

  public init(settings: ResamplingSettings) throws(SpecError) {
    var share = 0.2
    if let given = try settings.double("test_size") {
      guard given > 0, given < 1 else {
        throw settings.error("test_size", "test_size is a share of groups, between 0 and 1")
      }
      share = given
    }
    let seed = try settings.seed()
    guard seed <= UInt64(UInt32.max) else {
      throw settings.error("seed", "group-holdout draws with NumPy's RandomState, whose seed is below 2^32")
    }
    self.init(
      testSize: share, groups: try settings.groups(for: Self.id), seed: seed,
      testSizeLocation: settings.location(of: "test_size") ?? settings.methodLocation,
      methodLocation: settings.methodLocation)
  }

  public var splitCount: Int { 1 }

  public func plan(rowCount n: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String)
    throws(SpecError) -> FoldPlan
  {
    let groups = try requireGroups(groups, rowCount: n, specPath: specPath)
    let (codes, count) = GroupCodes.compact(groups)
    // scikit-learn's shares: the test groups rounded up, the rest trained on.
    let testCount = Int((testSize * Double(count)).rounded(.up))
    guard testCount < count else {
      throw FoldPlan.testSizeError(
        "a \(testSize) group holdout of \(count) groups in '\(groupsColumn.column)' leaves no training group",
        at: testSizeLocation, specPath: specPath)
    }
    var generator = MersenneTwister(seed: UInt32(seed))
    let permutation = generator.permutation(count)
    var tested = [Bool](repeating: false, count: count)
    for group in permutation[..<testCount] { tested[group] = true }
    var test: [Int32] = []
    for (row, code) in codes.enumerated() where tested[code] { test.append(Int32(row)) }
    return FoldPlan(
      folds: [Fold(index: 0, train: RowIndices(RowIndices(all: n), except: test), test: RowIndices(list: test[...]))])
  }

  public var definitionText: String {
    ResamplingSettingsText.line(seed: seed, testSize: testSize, groups: groupsColumn.column)
  }

  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(
      method: Self.id, folds: foldsPerRepeat, shuffle: true, seed: seed, testSize: testSize,
      groups: groupsColumn.column)
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    "A single group holdout by `\(r.groups ?? "?")`: \(String(format: "%.1f%%", (r.testSize ?? 0.2) * 100)) of the "
      + "groups, drawn at random (seed \(r.seed ?? 0), NumPy's RandomState as scikit-learn's GroupShuffleSplit), "
      + "are tested, every row of a group on one side."
  }
}
