import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Testing

/// The inner folds a tuned model chooses on: cut from the outer training rows only, as `GridSearchCV` cuts them,
/// and forward in time when the outer protocol is.
@Suite struct InnerFoldsTests {
  /// 40 rows, two classes alternating, times running backwards so row order and time order differ.
  static let data = LeakAuditChecksTests.dataset(
    (0..<40).map { [Double($0)] }, labels: (0..<40).map { $0 % 2 }, time: (0..<40).map { Double(100 - $0) })

  @Test func stratifiedInnerFoldsSplitTheOuterTrainingRowsOnly() throws {
    let outerTraining = Array(stride(from: 0, to: 40, by: 1)).filter { $0 % 5 != 0 }
    let folds = try InnerFolds.make(
      TuneSpec(), rows: RowIndices(outerTraining), dataset: Self.data, specPath: "s.yaml", outerFold: 0)
    #expect(folds.count == 5)
    for fold in folds {
      #expect(Set(fold.train).isDisjoint(with: fold.test))
      #expect(Set(Array(fold.train) + fold.test) == Set(outerTraining))
      #expect(Array(fold.train) == fold.train.sorted(), "rows keep the outer training order")
      let classOnes = fold.test.filter { Self.data.labels[$0] == 1 }.count
      #expect(abs(2 * classOnes - fold.test.count) <= 1, "each class in proportion")
    }
    // scikit-learn's StratifiedKFold(5) on the 32 rows gives fold 0 these (checked with scikit-learn 1.9.1): classes
    // are dealt in order of first appearance, so the class of row 1 gets the extra row.
    #expect(folds[0].test == [1, 2, 3, 4, 6, 7, 9])
  }

  @Test func timeSeriesInnerFoldsNeverTrainOnTheFuture() throws {
    let outerTraining = Array(10..<40)
    let folds = try InnerFolds.make(
      TuneSpec(inner: TimeSeriesSplit.self, innerFolds: 4), rows: RowIndices(outerTraining), dataset: Self.data,
      specPath: "s.yaml",
      outerFold: 1)
    #expect(folds.count == 4)
    for fold in folds {
      let latestTraining = fold.train.map { Self.data.time![$0] }.max()!
      let earliestTest = fold.test.map { Self.data.time![$0] }.min()!
      #expect(latestTraining < earliestTest)
      #expect(Set(Array(fold.train) + fold.test).isSubset(of: Set(outerTraining)))
      #expect(fold.test.count == 30 / 5)
    }
  }

  @Test func tooFewRowsIsALocatedError() {
    #expect(throws: SpecError.self) {
      try InnerFolds.make(
        TuneSpec(innerFolds: 5), rows: [0, 1, 2], dataset: Self.data, specPath: "s.yaml", outerFold: 2)
    }
  }

  /// The error points at `tune.inner.folds` where the spec wrote it.
  @Test func tooFewRowsNamesTheInnerFoldsLine() {
    var tune = TuneSpec(innerFolds: 5)
    tune.innerFoldsLocation = SourceLocation(file: "s.yaml", line: 12, column: 20)
    var caught: SpecError?
    do {
      _ = try InnerFolds.make(tune, rows: [0, 1, 2], dataset: Self.data, specPath: "s.yaml", outerFold: 2)
    } catch { caught = error }
    #expect(caught?.description.hasPrefix("s.yaml:12:20: tune.inner.folds: 5 inner folds need 5 rows") == true)
  }
}
