import BenchbookData
import BenchbookSpec
import Foundation
import Testing

/// The group methods as a spec writes them (`resampling: {method: group-kfold, groups: user_id}`): what is read,
/// what is refused and where, what the fingerprint and results record, and how the data's groups are numbered.
@Suite struct GroupResamplingSpecTests: SpecParsing {
  static let header = "data: {path: a.csv}\ntarget: y\nfeatures: [a]\n"

  @Test func readsEachGroupMethod() throws {
    let kfold = try #require(
      try parse(Self.header + "resampling: {method: group-kfold, folds: 10, groups: user_id}\n").resampling
        as? GroupKFold)
    #expect(kfold.folds == 10 && kfold.groupsColumn.column == "user_id" && kfold.groupsColumn.location.line == 4)
    let stratified = try parse(Self.header + "resampling: {method: stratified-group-kfold, groups: u}\n")
    #expect((stratified.resampling as? StratifiedGroupKFold)?.folds == 5)
    let logo = try parse(Self.header + "resampling: {method: leave-one-group-out, groups: u}\n")
    #expect(logo.resampling is LeaveOneGroupOut)
    let holdout = try #require(
      try parse(Self.header + "resampling: {method: group-holdout, groups: u, seed: 3}\n").resampling as? GroupHoldout)
    #expect(holdout.testSize == 0.2, "scikit-learn's GroupShuffleSplit default")
    #expect(holdout.seed == 3)
  }

  @Test func theGroupsColumnReachesTheDataDefinition() throws {
    let spec = try parse(Self.header + "resampling: {method: group-kfold, groups: user_id}\n")
    #expect(spec.dataset.groups?.column == "user_id")
    #expect(try parse(Self.header).dataset.groups == nil)
  }

  @Test func aGroupMethodWithoutGroupsIsLocated() throws {
    let error = try #require(specError(Self.header + "resampling:\n  method: group-kfold\n  folds: 3\n"))
    expectSpecError(error, line: 5, key: "resampling.groups", says: "name the column that holds the groups")
  }

  @Test func groupsOnAnUngroupedMethodIsLocated() throws {
    let error = try #require(specError(Self.header + "resampling:\n  method: kfold\n  groups: u\n"))
    expectSpecError(error, line: 6, key: "resampling.groups", says: "'groups' does not apply to kfold resampling")
  }

  @Test func timeSeriesWithGroupsIsRefused() throws {
    let error = try #require(
      specError(
        "data: {path: a.csv}\ntarget: y\ntime: t\nfeatures: [a]\nresampling:\n  method: time-series\n  groups: u\n"))
    expectSpecError(
      error, line: 7, key: "resampling.groups", says: "time-series resampling cannot also keep groups apart")
  }

  @Test func groupHoldoutSeedIsNumPys() throws {
    let error = try #require(
      specError(Self.header + "resampling:\n  method: group-holdout\n  groups: u\n  seed: 4294967296\n"))
    expectSpecError(error, line: 7, key: "resampling.seed", says: "below 2^32")
  }

  @Test func tuningInsideGroupFoldsIsGroupedToo() throws {
    let grouped = try parse(
      Self.header + "resampling: {method: group-kfold, groups: u}\nmodels: [{DT: {max_depth: [2, 4]}}]\n")
    #expect(grouped.tune.inner.id == "group-kfold")
    let plain = try parse(Self.header + "models: [{DT: {max_depth: [2, 4]}}]\n")
    #expect(plain.tune.inner.id == "stratified-kfold")
    let error = try #require(
      specError(Self.header + "models: [{DT: {max_depth: [2, 4]}}]\ntune:\n  inner: {method: group-kfold}\n"))
    #expect(error.location.line == 6 && error.message.contains("does not name"), "\(error)")
    let timed = try #require(
      specError(
        "data: {path: a.csv}\ntarget: y\ntime: t\nfeatures: [a]\nresampling: {method: group-kfold, groups: u}\n"
          + "models: [{DT: {max_depth: [2, 4]}}]\ntune:\n  inner: {method: time-series}\n"))
    #expect(timed.location.line == 8 && timed.message.contains("cannot keep the groups"), "\(timed)")
  }

  /// Every earlier spec's `resampling` line stays byte for byte; a group method's names its column.
  @Test func fingerprintChangesOnlyForGroups() throws {
    #expect(
      ResamplingSettingsText.line(seed: 0)
        == "folds=5 shuffle=false seed=0 repeats=10 gap=0 max_train_size=- test_size=-")
    #expect(
      KFold(folds: 10, shuffle: true, seed: 7).definitionText
        == "folds=10 shuffle=true seed=7 repeats=10 gap=0 max_train_size=- test_size=-")
    #expect(Holdout().definitionText == "folds=5 shuffle=false seed=0 repeats=10 gap=0 max_train_size=- test_size=0.25")
    let a = try parse(Self.header + "resampling: {method: group-kfold, groups: u}\n").definitionText
    let b = try parse(Self.header + "resampling: {method: group-kfold, groups: v}\n").definitionText
    #expect(
      a.contains(
        "resampling group-kfold folds=5 shuffle=false seed=0 repeats=10 gap=0 max_train_size=- test_size=- groups=u\n"))
    #expect(a != b)
  }

  @Test func resultsRecordTheGroupsColumn() throws {
    let spec = try parse(Self.header + "resampling: {method: leave-one-group-out, groups: shop}\n")
    let summary = spec.resampling.record(foldsPerRepeat: 7)
    #expect(summary.groups == "shop" && summary.folds == 7)
    #expect(LeaveOneGroupOut.describe(summary).contains("`shop`: 7 splits"))
    #expect(KFold().record(foldsPerRepeat: 5).groups == nil)
  }

  // MARK: - The data's groups

  func load(_ csv: String, groups: String = "g", missing: MissingPolicy = .error) throws -> Dataset {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("groups-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("d.csv").path
    try csv.write(toFile: path, atomically: true, encoding: .utf8)
    let spec = try parse(
      "data: {path: \(path), missing: \(missing.rawValue)}\ntarget: y\nfeatures: [a]\n"
        + "resampling: {method: group-kfold, folds: 2, groups: \(groups)}\n")
    return try Dataset.load(spec.dataset)
  }

  /// Text, compared exactly and ordered by its bytes: `1` and `1.0` are two groups, `10` sorts before `9`.
  @Test func groupsAreTextInNumPyOrder() throws {
    let data = try load("a,y,g\n1,0,9\n2,1,10\n3,0,1.0\n4,1,1\n5,0,9\n6,1,b\n")
    #expect(data.groups == [3, 2, 1, 0, 3, 4])
  }

  /// Rows another column drops keep the others' numbering dense.
  @Test func droppedRowsLeaveDenseGroups() throws {
    let data = try load("a,y,g\n1,0,x\n,1,y\n3,0,z\n4,1,x\n", missing: .drop)
    #expect(data.groups == [0, 1, 0])
  }

  /// `all_except` takes every column but the target, the time and the groups: a group id is no feature unless listed.
  @Test func allExceptLeavesTheGroupsOut() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("groups-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("d.csv").path
    try "a,b,y,g\n1,2,0,x\n2,3,1,y\n3,1,0,x\n4,4,1,z\n".write(toFile: path, atomically: true, encoding: .utf8)
    let spec = try parse(
      "data: {path: \(path)}\ntarget: y\nfeatures: {all_except: []}\n"
        + "resampling: {method: group-kfold, folds: 2, groups: g}\n")
    let data = try Dataset.load(spec.dataset)
    #expect(data.columnNames == ["a", "b"])
    #expect(data.groups == [0, 1, 0, 2])
  }

  @Test func aMissingGroupIsAnErrorAtItsLine() throws {
    do {
      _ = try load("a,y,g\n1,0,x\n2,1,\n3,0,z\n", missing: .drop)
      Issue.record("expected an error")
    } catch let error as DataError {
      #expect(error.location.line == 3, "\(error)")
      #expect(error.description.contains("resampling.groups"), "\(error)")
      #expect(error.description.contains("d.csv"), "\(error)")
    }
  }

  @Test func anUnknownGroupsColumnIsAnErrorAtTheSpec() throws {
    do {
      _ = try load("a,y,g\n1,0,x\n2,1,y\n", groups: "user")
      Issue.record("expected an error")
    } catch let error as DataError {
      #expect(error.location.line == 4, "\(error)")
      #expect(error.description.contains("unknown column 'user'"), "\(error)")
    }
  }

  /// The group splits themselves on a toy table (scikit-learn's folds are checked on a real panel end to end).
  @Test func groupKFoldDealsLargestGroupsFirst() throws {
    // Group sizes 3, 1, 2, 2 → deal order (largest first, later of equal sizes first) 0, 3, 2, 1.
    let groups = [0, 0, 0, 1, 2, 2, 3, 3]
    let method = GroupKFold(folds: 2, groups: ColumnReference(column: "g", location: SourceLocation(file: "s")))
    let plan = try method.plan(
      rowCount: 8, labels: [Int](repeating: 0, count: 8), time: nil, groups: groups, specPath: "s")
    #expect(plan.folds.map { $0.test.map { $0 } } == [[0, 1, 2, 3], [4, 5, 6, 7]])
    #expect(throws: SpecError.self) {
      try GroupKFold(folds: 5, groups: method.groupsColumn).plan(
        rowCount: 8, labels: [Int](repeating: 0, count: 8), time: nil, groups: groups, specPath: "s")
    }
    #expect(throws: SpecError.self) {
      try method.plan(rowCount: 8, labels: [Int](repeating: 0, count: 8), time: nil, groups: nil, specPath: "s")
    }
  }
}
