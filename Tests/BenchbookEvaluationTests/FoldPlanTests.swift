import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Testing

@Suite struct FoldPlanTests {
  func plan(_ method: any ResamplingMethod, n: Int, labels: [Int]? = nil, time: [Double]? = nil) throws -> FoldPlan {
    try method.plan(rowCount: n, labels: labels ?? [Int](repeating: 0, count: n), time: time, specPath: "s.yaml")
  }

  @Test func kfoldMatchesScikitLearn() throws {
    for golden in Goldens.shared.splits where golden.kind == "kfold" {
      let folds = try plan(KFold(folds: golden.k), n: golden.n!).folds
      #expect(folds.map { Array($0.test) } == golden.folds.map(\.test))
      #expect(folds.map { Array($0.train) } == golden.folds.map(\.train))
    }
  }

  @Test func stratifiedMatchesScikitLearnWithoutShuffle() throws {
    for golden in Goldens.shared.splits where golden.kind == "stratified" {
      let labels = golden.labels!
      let folds = try plan(StratifiedKFold(folds: golden.k), n: labels.count, labels: labels)
        .folds
      #expect(folds.map { Array($0.test) } == golden.folds.map(\.test))
    }
  }

  @Test func timeSeriesMatchesScikitLearnOnSortedRows() throws {
    for golden in Goldens.shared.splits where golden.kind == "time-series" {
      let n = golden.n!
      let spec = TimeSeriesSplit(
        folds: golden.k, gap: golden.gap ?? 0, maxTrainSize: golden.max_train_size, testSize: golden.test_size)
      let folds = try plan(spec, n: n, time: (0..<n).map(Double.init)).folds
      #expect(folds.map { Array($0.train) } == golden.folds.map(\.train))
      #expect(folds.map { Array($0.test) } == golden.folds.map(\.test))
    }
  }

  @Test func timeSeriesSortsByTimeNotRowOrder() throws {
    // Rows in reverse time order: row 5 is earliest.
    let time: [Double] = [60, 50, 40, 30, 20, 10]
    let folds = try plan(TimeSeriesSplit(folds: 2), n: 6, time: time).folds
    #expect(folds[0].train == [5, 4])
    #expect(folds[0].test == [3, 2])
    #expect(folds[1].train == [5, 4, 3, 2])
    #expect(folds[1].test == [1, 0])
    for fold in folds {
      let latestTrain = fold.train.map { time[$0] }.max()!
      #expect(fold.test.allSatisfy { time[$0] > latestTrain })
    }
  }

  @Test func shuffledKFoldIsAPartitionAndReproducible() throws {
    let spec = KFold(folds: 4, shuffle: true, seed: 7)
    let a = try plan(spec, n: 30)
    let b = try plan(spec, n: 30)
    #expect(a.folds == b.folds)
    #expect(a.sha256 == b.sha256)
    #expect(a.folds.flatMap(\.test).sorted() == Array(0..<30))
    #expect(a.folds.map(\.test.count) == [8, 8, 7, 7])
    #expect(Array(a.folds[0].test) != Array(0..<8), "shuffling moved rows")
    let other = try plan(KFold(folds: 4, shuffle: true, seed: 8), n: 30)
    #expect(other.sha256 != a.sha256)
  }

  /// The digest is SHA-256 of the text its doc comment defines, whatever shortcut writes the text: runs whose
  /// rows cross 9, 99, 999 and 9,999, shuffled rows in short runs, repeats, time order, and texts longer than
  /// the 64 KiB the writer hashes at a time.
  @Test func digestHashesTheDefinedText() throws {
    let n = 30_000
    let time = (0..<n).map { Double(($0 * 7_919) % n) }
    let plans = [
      try plan(KFold(folds: 3), n: 2_500),
      try plan(KFold(folds: 7), n: n),
      try plan(KFold(folds: 4, shuffle: true, seed: 3), n: n),
      try plan(RepeatedKFold(folds: 3, repeats: 2, seed: 1), n: 1_200),
      try plan(TimeSeriesSplit(folds: 5), n: n, time: time),
      try plan(KFold(folds: 2), n: 2),
    ]
    for plan in plans {
      let text = plan.folds.map { fold in
        "\(fold.repeatIndex) \(fold.index):" + fold.test.map(String.init).joined(separator: ",") + "\n"
      }.joined()
      #expect(plan.sha256 == SHA256.hexDigest(text))
    }
  }

  @Test func repeatedKFoldRepeatsWithDifferentShuffles() throws {
    let result = try plan(RepeatedKFold(folds: 3, repeats: 4, seed: 1), n: 12)
    #expect(result.folds.count == 12)
    #expect(result.repeats == 4)
    #expect(result.folds.map(\.repeatIndex) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
    for r in 0..<4 {
      #expect(result.folds[(r * 3)..<(r * 3 + 3)].flatMap(\.test).sorted() == Array(0..<12))
    }
    #expect(result.folds[0].test != result.folds[3].test)
  }

  @Test func shuffledStratifiedKeepsProportions() throws {
    let labels = [Int](repeating: 0, count: 40) + [Int](repeating: 1, count: 20)
    let result = try plan(
      StratifiedKFold(folds: 5, shuffle: true, seed: 3), n: 60, labels: labels)
    for fold in result.folds {
      #expect(fold.test.filter { labels[$0] == 1 }.count == 4)
      #expect(fold.test.count == 12)
    }
  }

  @Test func holdoutTakesTheLastShareUnlessShuffled() throws {
    let plain = try plan(Holdout(testSize: 0.25), n: 10)
    #expect(plain.folds.count == 1)
    #expect(plain.folds[0].test == [7, 8, 9])
    let shuffled = try plan(Holdout(testSize: 0.25, shuffle: true, seed: 2), n: 10)
    #expect(shuffled.folds[0].test.count == 3)
    #expect(Set(shuffled.folds[0].test).union(shuffled.folds[0].train) == Set(0..<10))
  }

  @Test func moreFoldsThanRowsIsAnErrorAtTheFoldsLine() throws {
    let location = SourceLocation(file: "s.yaml", line: 12)
    do {
      _ = try plan(KFold(folds: 10, foldsLocation: location), n: 7)
      Issue.record("expected an error")
    } catch let error as SpecError {
      #expect(error.location == location)
      #expect(error.description.contains("10 folds need at least 10 rows; the data has 7"))
    }
  }

  /// scikit-learn raises when every class has fewer members than folds; iris has 50 per class.
  @Test func stratifiedFoldsBeyondEveryClassAreAnError() throws {
    let labels = (0..<150).map { $0 / 50 }
    let location = SourceLocation(file: "s.yaml", line: 9)
    do {
      _ = try plan(StratifiedKFold(folds: 60, foldsLocation: location), n: 150, labels: labels)
      Issue.record("expected an error")
    } catch let error as SpecError {
      #expect(error.location == location)
      #expect(error.description.contains("60 stratified folds need a class with at least 60 rows; the largest has 50"))
    }
    #expect(throws: Never.self) {
      try plan(StratifiedKFold(folds: 50), n: 150, labels: labels)
    }
  }

  /// scikit-learn warns, and splits, when the least populated class has fewer members than folds; so does the plan,
  /// at the spec's `folds` line. A class with as many rows as folds gets no warning.
  @Test func foldsBeyondTheSmallestClassWarn() throws {
    let labels = (0..<40).map { $0 < 3 ? 1 : 0 }
    let location = SourceLocation(file: "s.yaml", line: 9)
    let warned = try plan(StratifiedKFold(folds: 5, foldsLocation: location), n: 40, labels: labels)
    #expect(warned.folds.count == 5)
    #expect(
      warned.warnings == [
        "s.yaml:9: resampling.folds: the least populated class has only 3 rows, fewer than the 5 folds: 2 test folds "
          + "hold none of it (scikit-learn warns alike); fewer folds keep it in every one"
      ])
    #expect(try plan(StratifiedKFold(folds: 3), n: 40, labels: labels).warnings.isEmpty)
    #expect(try plan(KFold(folds: 5), n: 40, labels: labels).warnings.isEmpty)
  }
}
