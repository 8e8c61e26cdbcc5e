import BenchbookData
import BenchbookEvaluation
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// Each leak-audit check on small data made for it, through the public API.
@Suite struct LeakAuditChecksTests {
  /// A dataset of numeric features named `f0`, `f1`, …, or as given.
  static func dataset(
    _ rows: [[Double]], labels: [Int], classes: [String] = ["0", "1"], time: [Double]? = nil, names: [String]? = nil,
    types: [FeatureType]? = nil
  ) -> Dataset {
    let width = rows.first?.count ?? 0
    let names = names ?? (0..<width).map { "f\($0)" }
    let features = (0..<width).map {
      FeatureSummary(name: names[$0], type: types?[$0] ?? .numeric, columns: $0..<($0 + 1), missingCount: 0)
    }
    return Dataset(
      x: Matrix(rows), columnNames: names, features: features, labels: labels, classes: classes, time: time,
      lineNumbers: LineNumbers((0..<rows.count).lazy.map { $0 + 2 }),
      provenance: DataProvenance(path: "t.csv", sha256: "", rowsRead: rows.count, droppedByColumn: [:], droppedRows: 0))
  }

  static func spec(_ yaml: String) throws -> ExperimentSpec {
    try SpecParser.parse(yaml: "data: {path: t.csv}\ntarget: y\n" + yaml, path: "/t/spec.yaml")
  }

  static func context(_ spec: ExperimentSpec, _ dataset: Dataset) throws -> AuditContext {
    let plan = try spec.resampling.plan(
      rowCount: dataset.x.rows, labels: dataset.labels, time: dataset.time, specPath: spec.path)
    return AuditContext(spec: spec, dataset: dataset, plan: plan)
  }

  /// n rows: a noisy feature, a label that depends on it, times 0..<n.
  static func noisy(_ n: Int, seed: UInt64 = 1) -> (rows: [[Double]], labels: [Int]) {
    var generator = SeededGenerator(seed: seed)
    var rows: [[Double]] = []
    var labels: [Int] = []
    for _ in 0..<n {
      let a = Double(generator.uniform(below: 1000)) / 100
      let b = Double(generator.uniform(below: 1000)) / 100
      rows.append([a, b])
      labels.append(a + Double(generator.uniform(below: 600)) / 100 > 8 ? 1 : 0)
    }
    return (rows, labels)
  }

  // MARK: - temporal-split

  @Test func overlapsCompareTimesNotFileOrder() throws {
    let data = Self.dataset([[1], [2], [3], [4], [5], [6]], labels: [0, 1, 0, 1, 0, 1], time: [5, 4, 3, 2, 1, 0])
    let context = try Self.context(try Self.spec("time: t\nfeatures: [f0]\nresampling: {folds: 3}\n"), data)
    let overlaps = TemporalSplitCheck.overlaps(context)
    #expect(overlaps.map(\.testRowsBeforeLatestTraining) == [0, 2, 2])
    #expect(overlaps.map(\.share) == [0, 1, 1])
  }

  /// On thousands of rows a fold's latest training time is read from blocks of rows (whole blocks' maxima, row
  /// by row at the edges of runs): the same count as a row-by-row pass, on shuffled and contiguous folds.
  @Test(arguments: ["resampling: {folds: 7}", "resampling: {folds: 4, shuffle: true, seed: 2}"])
  func overlapsOnManyRowsEqualARowByRowCount(resampling: String) throws {
    let (rows, labels) = Self.noisy(5_000)
    var generator = SeededGenerator(seed: 8)
    let time = (0..<5_000).map { Double($0 / 3 + generator.uniform(below: 900)) }
    let context = try Self.context(
      try Self.spec("time: t\nfeatures: [f0, f1]\n\(resampling)\n"), Self.dataset(rows, labels: labels, time: time))
    let expected = context.plan.folds.map { fold in
      let latest = fold.train.map { time[$0] }.max()!
      return fold.test.filter { time[$0] < latest }.count
    }
    #expect(TemporalSplitCheck.overlaps(context).map(\.testRowsBeforeLatestTraining) == expected)
    #expect(expected.contains { $0 > 0 })
  }

  /// The time profile's bins count every row by class, and each fold's spans cover exactly the slots its rows
  /// fall in, from the earliest to the latest time there.
  @Test func timeProfileCountsRowsAndSpansFolds() throws {
    let (rows, labels) = Self.noisy(3_000)
    var generator = SeededGenerator(seed: 12)
    // Times with a gap in the middle, so the training spans of the early folds break in two.
    let time = (0..<3_000).map { Double(generator.uniform(below: 1_000) + ($0 % 2 == 0 ? 0 : 5_000)) }
    let context = try Self.context(
      try Self.spec("time: t\nfeatures: [f0, f1]\nresampling: {folds: 3}\n"),
      Self.dataset(rows, labels: labels, time: time))
    let profile = try #require(TimeProfile.make(context))
    #expect(profile.bins.map(\.rows).reduce(0, +) == 3_000)
    let (first, last) = (time.min()!, time.max()!)
    let width = (last - first) / Double(TimeProfile.binCount)
    for (index, bin) in profile.bins.enumerated() {
      let inside = time.indices.filter { min(TimeProfile.binCount - 1, Int((time[$0] - first) / width)) == index }
      #expect(bin.rows == inside.count, "bin \(index)")
      #expect(bin.classCounts == [inside.count { labels[$0] == 0 }, inside.count { labels[$0] == 1 }])
    }
    // Each fold's spans by hand: the earliest and latest time in each slot, adjacent occupied slots merged.
    let step = (last - first) / Double(TimeProfile.spanResolution)
    func spans(_ rows: RowIndices) -> [[Double]] {
      var low = [Double?](repeating: nil, count: TimeProfile.spanResolution)
      var high = low
      for row in rows {
        let slot = min(TimeProfile.spanResolution - 1, Int((time[row] - first) / step))
        low[slot] = min(low[slot] ?? .infinity, time[row])
        high[slot] = max(high[slot] ?? -.infinity, time[row])
      }
      var result: [[Double]] = []
      var previous = false
      for slot in low.indices {
        guard let start = low[slot], let end = high[slot] else {
          previous = false
          continue
        }
        if previous { result[result.count - 1][1] = end } else { result.append([start, end]) }
        previous = true
      }
      return result
    }
    for (fold, profiled) in zip(context.plan.folds, profile.folds) {
      #expect(profiled.test == spans(fold.test) && profiled.train == spans(fold.train), "fold \(fold.index)")
      #expect(profiled.test.count == 2, "the gap splits the test rows' times")
    }
  }

  @Test func forwardSplitsNeverTrainOnTheFuture() throws {
    let (rows, labels) = Self.noisy(120)
    let time = (0..<120).map { Double(($0 * 37) % 120) }
    let data = Self.dataset(rows, labels: labels, time: time)
    let context = try Self.context(
      try Self.spec("time: t\nfeatures: [f0, f1]\nresampling: {method: time-series, folds: 4}\n"), data)
    #expect(TemporalSplitCheck.overlaps(context).allSatisfy { $0.testRowsBeforeLatestTraining == 0 })
    let result = TemporalSplitCheck.run(
      context, overlaps: TemporalSplitCheck.overlaps(context), specLogLoss: [], forward: .failure(.init(reason: "")))
    #expect(result.findings.isEmpty && result.ran)
  }

  @Test func shadowPlanHasTheSpecsFoldCountAndCapsTestRows() throws {
    let (rows, labels) = Self.noisy(300)
    let data = Self.dataset(rows, labels: labels, time: (0..<300).map { Double(299 - $0) })
    let spec = try Self.spec(
      "time: t\nfeatures: [f0, f1]\nresampling: {folds: 5}\naudit: {forward_test_rows: 20, gap: 3}\n")
    let context = try Self.context(spec, data)
    let made = try ForwardChainingShadow.plan(context).get()
    #expect(made.blockRows == 50)
    let shadow = made.plan
    #expect(shadow.folds.count == 5)
    for fold in shadow.folds {
      #expect(fold.test.count == 20, "50 test rows thinned to 20")
      let latestTraining = fold.train.map { data.time![$0] }.max()!
      #expect(fold.test.allSatisfy { data.time![$0] > latestTraining })
    }
    #expect(shadow.folds[0].train.count == 50 - 3, "the audit's gap leaves rows out")
  }

  /// Ten folds make five forward splits, not ten: `TimeSeriesSplit`'s default, at half the cost.
  @Test func shadowPlanStopsAtFiveSplits() throws {
    let (rows, labels) = Self.noisy(330)
    let data = Self.dataset(rows, labels: labels, time: (0..<330).map { Double(329 - $0) })
    let context = try Self.context(try Self.spec("time: t\nfeatures: [f0, f1]\nresampling: {folds: 10}\n"), data)
    let shadow = try ForwardChainingShadow.plan(context).get().plan
    #expect(shadow.folds.count == ForwardChainingShadow.maximumSplits && shadow.folds.count == 5)
    #expect(shadow.folds.map(\.test.count) == [55, 55, 55, 55, 55])
    #expect(shadow.folds.map(\.train.count) == [55, 110, 165, 220, 275])
  }

  func temporal(spec specLoss: [[Double]], forward: [[Double?]]) throws -> CheckResult {
    let data = Self.dataset([[1], [2], [3], [4]], labels: [0, 1, 0, 1], time: [3, 2, 1, 0])
    let context = try Self.context(
      try Self.spec("time: t\nfeatures: [f0]\nresampling: {folds: 2}\nmodels: [LR, NB]\n"), data)
    return TemporalSplitCheck.run(
      context, overlaps: TemporalSplitCheck.overlaps(context), specLogLoss: specLoss,
      forward: .success(.init(logLoss: forward, folds: forward[0].count, blockRows: 2, scoredRows: 2)))
  }

  @Test func smallGapWithTheSameWinnerIsANote() throws {
    let result = try temporal(spec: [[0.50, 0.52], [0.60, 0.62]], forward: [[0.505, 0.525], [0.61, 0.63]])
    let finding = try #require(result.findings.first)
    #expect(finding.severity == .info && finding.subject == "t")
    let evidence = try #require(finding.evidence.decode(TemporalSplitCheck.Evidence.self))
    let chaining = try #require(evidence.forwardChaining)
    #expect(!chaining.winnerChanged && chaining.models.allSatisfy { !$0.exceeds })
    #expect(abs(chaining.models[0].gap! - 0.005) < 1e-12)
    // SE = sqrt(s²_f / 2 + s²_s / 2) with sample variances 0.0002 and 0.0002.
    #expect(abs(chaining.models[0].standardError! - (0.0002 / 2 + 0.0002 / 2).squareRoot()) < 1e-12)
    #expect(evidence.folds.count == 2 && evidence.foldsTrainingOnTheFuture == 1)
  }

  @Test func aLargeGapOrANewWinnerWarns() throws {
    let gap = try temporal(spec: [[0.50, 0.52], [0.60, 0.62]], forward: [[0.60, 0.62], [0.61, 0.63]])
    #expect(gap.findings.first?.severity == .warning)
    #expect(gap.findings.first?.message.contains("beyond chance for LR") == true)
    let winner = try temporal(spec: [[0.50, 0.52], [0.51, 0.53]], forward: [[0.52, 0.52], [0.505, 0.515]])
    let finding = try #require(winner.findings.first)
    #expect(finding.severity == .warning)
    #expect(finding.message.contains("the winner changes from LR to NB"))
  }

  // MARK: - cross-fold-duplicates

  func duplicates(copies: Int, extra: String = "") throws -> CheckResult {
    var (rows, labels) = Self.noisy(200)
    for i in 0..<copies {
      rows.append(rows[i])
      labels.append(labels[i])
    }
    let data = Self.dataset(rows, labels: labels)
    return CrossFoldDuplicatesCheck.run(try Self.context(try Self.spec("features: [f0, f1]\n\(extra)"), data))
  }

  @Test func duplicatesAcrossFoldsWarnThenFail() throws {
    #expect(try duplicates(copies: 0).findings.isEmpty)
    let few = try #require(try duplicates(copies: 2).findings.first)
    #expect(few.severity == .warning && few.subject == "rows")
    let evidence = try #require(few.evidence.decode(CrossFoldDuplicatesCheck.Evidence.self))
    #expect(evidence.duplicates == 4, "each copy and its original test against the other")
    #expect(evidence.folds.count == 5)
    let many = try #require(try duplicates(copies: 20).findings.first)
    #expect(many.severity == .error, "20 copies of rows with two continuous columns cannot be coincidence")
    let tolerated = try duplicates(copies: 2, extra: "audit: {thresholds: {duplicates_warning: 0.05}}\n")
    #expect(tolerated.findings.isEmpty)
  }

  /// Coarse rows (three features of 2–4 values, 600 rows, a label that depends on them) coincide by chance: most
  /// test rows have a training twin, chance expects as many, and the check stays quiet with both shares in its note.
  @Test func coarseTwinsWithinChanceRaiseNothing() throws {
    var generator = SeededGenerator(seed: 3)
    var rows: [[Double]] = []
    var labels: [Int] = []
    for _ in 0..<600 {
      let row = [
        Double(generator.uniform(below: 4)), Double(generator.uniform(below: 2)), Double(generator.uniform(below: 3)),
      ]
      rows.append(row)
      labels.append(row[0] + Double(generator.uniform(below: 3)) > 3 ? 1 : 0)
    }
    let result = CrossFoldDuplicatesCheck.run(
      try Self.context(try Self.spec("features: [f0, f1, f2]\n"), Self.dataset(rows, labels: labels)))
    #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    #expect(result.note.contains("expected by chance") && result.note.hasSuffix("within chance"), "\(result.note)")
  }

  /// The same coarse rows with a fine-grained column added and some of them copied: the copies' twins are ones
  /// chance cannot explain. 10 copies (3.0% of test rows twinned) warn as beyond chance; 30 copies (8.3%, more than
  /// ten standard errors and the 5% error share beyond it) are an error. Both quote the share chance explains.
  func coarseWithCopies(every step: Int) throws -> CheckResult {
    var generator = SeededGenerator(seed: 3)
    var rows: [[Double]] = []
    var labels: [Int] = []
    for _ in 0..<600 {
      let row = [
        Double(generator.uniform(below: 4)), Double(generator.uniform(below: 2)),
        Double(generator.uniform(below: 100_000)) / 1000,
      ]
      rows.append(row)
      labels.append(row[0] + Double(generator.uniform(below: 3)) > 3 ? 1 : 0)
    }
    for i in stride(from: 0, to: 600, by: step) {
      rows.append(rows[i])
      labels.append(labels[i])
    }
    return CrossFoldDuplicatesCheck.run(
      try Self.context(try Self.spec("features: [f0, f1, f2]\n"), Self.dataset(rows, labels: labels)))
  }

  @Test func copiedRecordsAmongCoarseOnesWarnThenFail() throws {
    let few = try #require(try coarseWithCopies(every: 60).findings.first)
    #expect(few.severity == .warning, "\(few.message)")
    let many = try #require(try coarseWithCopies(every: 20).findings.first)
    #expect(many.severity == .error, "\(many.message)")
    for finding in [few, many] {
      let evidence = try #require(finding.evidence.decode(CrossFoldDuplicatesCheck.Evidence.self))
      #expect(evidence.share > (evidence.expectedShare ?? 1) + 0.01, "beyond chance")
      #expect((evidence.expectedShare ?? 1) < 0.05)
      #expect(finding.message.contains("chance, from the data's own value frequencies, explains"))
    }
  }

  /// scipy: `poisson.sf(0, 0.5)` = 0.3934693402873665, `poisson.sf(2, 2)` = 0.32332358381693654,
  /// `poisson.sf(29, 0.01)` = 3.73e-93.
  @Test func poissonTailMatchesScipy() {
    #expect(abs(DuplicateChance.poissonTail(atLeast: 1, mean: 0.5) - 0.3934693402873665) < 1e-14)
    #expect(abs(DuplicateChance.poissonTail(atLeast: 3, mean: 2) - 0.32332358381693654) < 1e-14)
    #expect(DuplicateChance.poissonTail(atLeast: 30, mean: 0.01) < 1e-80)
    #expect(DuplicateChance.poissonTail(atLeast: 0, mean: 0) == 1)
    #expect(DuplicateChance.poissonTail(atLeast: 1, mean: 0) == 0)
  }

  // MARK: - class-coverage

  @Test func foldsTrainingWithoutAClassAreNamed() throws {
    let rows = (0..<9).map { [Double($0)] }
    let data = Self.dataset(rows, labels: [0, 0, 0, 1, 1, 1, 2, 2, 2], classes: ["a", "b", "c"])
    let result = ClassCoverageCheck.run(
      try Self.context(try Self.spec("features: [f0]\nresampling: {folds: 3}\n"), data))
    #expect(result.findings.map(\.subject) == ["a", "b", "c"])
    let evidence = try #require(result.findings[1].evidence.decode(ClassCoverageCheck.Evidence.self))
    #expect(evidence.folds == [1] && evidence.testRows == 3)
    #expect(result.findings.allSatisfy { $0.severity == .warning })
  }

  // MARK: - preprocessing-scope

  @Test func everyFittedPipelineRecordsItsTrainingRows() throws {
    let (rows, labels) = Self.noisy(60)
    let data = Self.dataset(rows, labels: labels)
    let spec = try Self.spec("features: [f0, f1]\npreprocess: [standardize]\nresampling: {folds: 3}\nmodels: [LR]\n")
    let context = try Self.context(spec, data)
    let evaluator = FoldEvaluator(dataset: data, preprocessing: spec.preprocessing)
    var records: [PreprocessingFitRecord] = []
    for fold in context.plan.folds {
      let outcome = try evaluator.evaluate(spec.models[0], on: fold)
      #expect(outcome.preprocessingFittedOn == RowSetFingerprint(fold.train))
      #expect(outcome.preprocessingFittedOn != RowSetFingerprint(fold.test))
      #expect(outcome.preprocessingFittedOn != RowSetFingerprint(Array(0..<60)))
      records.append(PreprocessingFitRecord(model: "LR", fold: fold.index, fittedOn: outcome.preprocessingFittedOn))
    }
    let all = try evaluator.fitAllRows(spec.models[0])
    #expect(all.preprocessing.fittedOn == RowSetFingerprint(Array(0..<60)))
    #expect(PreprocessingScopeCheck.run(context, records: records).findings.isEmpty)

    // A pipeline fitted on every row, test rows included, is an error.
    records[1].fittedOn = RowSetFingerprint(Array(0..<60))
    let finding = try #require(PreprocessingScopeCheck.run(context, records: records).findings.first)
    #expect(finding.severity == .error && finding.subject == "standardize")
    let evidence = try #require(finding.evidence.decode(PreprocessingScopeCheck.ScopeEvidence.self))
    #expect(evidence.fold == 1 && evidence.fittedRows == 60 && evidence.trainingRows == 40)
  }

  @Test func dataStandardisedBeforeSplittingWarn() throws {
    let (rows, labels) = Self.noisy(100)
    let spec = try Self.spec("features: [f0, f1]\n")
    #expect(
      PreprocessingScopeCheck.run(try Self.context(spec, Self.dataset(rows, labels: labels)), records: []).findings
        .isEmpty)
    var scaled = rows
    for c in 0..<2 {
      let column = rows.map { $0[c] }
      let mean = column.reduce(0, +) / 100
      let sd = (column.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 100).squareRoot()
      for r in 0..<100 { scaled[r][c] = (rows[r][c] - mean) / sd }
    }
    let finding = try #require(
      PreprocessingScopeCheck.run(try Self.context(spec, Self.dataset(scaled, labels: labels)), records: []).findings
        .first)
    #expect(finding.severity == .warning && finding.subject == "input")
  }

  // MARK: - post-outcome-feature

  @Test func declaredLateFeaturesAreErrors() throws {
    let (rows, labels) = Self.noisy(20)
    let spec = try Self.spec(
      "features:\n  - f0: {known: before-prediction}\n  - f1: {known: after-outcome}\n")
    let result = PostOutcomeFeatureCheck.run(try Self.context(spec, Self.dataset(rows, labels: labels)))
    #expect(result.findings.map(\.subject) == ["f1"])
    #expect(result.findings[0].severity == .error)
    #expect(result.findings[0].evidence.decode(PostOutcomeFeatureCheck.Evidence.self)?.known == "after-outcome")
    let silent = PostOutcomeFeatureCheck.run(
      try Self.context(try Self.spec("features: [f0, f1]\n"), Self.dataset(rows, labels: labels)))
    #expect(!silent.ran, "no metadata, nothing to check")
  }

  @Test func availableAtAfterPredictAtIsCounted() throws {
    let (rows, labels) = Self.noisy(10)
    var data = Self.dataset(rows, labels: labels)
    data.predictAt = (0..<10).map { Double($0) * 100 }
    let available: [Double] = [-5, 150, 150, 350, .nan, 500, 600, 700, 800, 900]
    data.availableAt = ["f0": available]
    let spec = try Self.spec("predict_at: t\nfeatures: [{f0: {available_at: a}}, f1]\n")
    let finding = try #require(PostOutcomeFeatureCheck.run(try Self.context(spec, data)).findings.first)
    let evidence = try #require(finding.evidence.decode(PostOutcomeFeatureCheck.Evidence.self))
    #expect(evidence.rowsCompared == 9 && evidence.rowsKnownAfterPrediction == 2)
    #expect(evidence.medianDelaySeconds == 50 && evidence.firstLine == 3)
    #expect(finding.severity == .error)
  }

  // MARK: - time-proxy

  @Test func aRowNumberIsATimeProxy() throws {
    let (rows, labels) = Self.noisy(50)
    let withID = rows.enumerated().map { $1 + [Double($0)] }
    let data = Self.dataset(withID, labels: labels, time: (0..<50).map { Double($0 / 5) })
    let result = TimeProxyCheck.run(try Self.context(try Self.spec("time: t\nfeatures: [f0, f1, f2]\n"), data))
    #expect(result.findings.map(\.subject) == ["f2"])
    #expect((result.findings[0].evidence.decode(TimeProxyCheck.Evidence.self)?.spearman ?? 0) > 0.99)
  }

  /// Under time-series folds every fit trains on the past only, so the same row number is a note, not a warning.
  @Test func aRowNumberUnderTimeSeriesFoldsIsANote() throws {
    let (rows, labels) = Self.noisy(50)
    let withID = rows.enumerated().map { $1 + [Double($0)] }
    let data = Self.dataset(withID, labels: labels, time: (0..<50).map { Double($0 / 5) })
    let spec = try Self.spec("time: t\nfeatures: [f0, f1, f2]\nresampling: {method: time-series, folds: 3}\n")
    let result = TimeProxyCheck.run(try Self.context(spec, data))
    let finding = try #require(result.findings.first)
    #expect(finding.subject == "f2" && finding.severity == .info)
    #expect(finding.message.contains("cannot leak the future"))
  }

  /// scipy: `spearmanr([1,2,3,4,5,6], [2,1,4,3,6,6]).statistic` = 0.8696565534786727.
  @Test func spearmanMatchesScipyWithTies() {
    let rho = SpearmanCorrelation.rho([1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 6])!
    #expect(abs(rho - 0.8696565534786727) < 1e-12)
    #expect(SpearmanCorrelation.rho([1, 2, 3], [3, 3, 3]) == nil)
    #expect(SortedOrder.averageRanks([10, 20, 10, 30]) == [1.5, 3, 1.5, 4])
  }

  // MARK: - suspect-leak statistics

  /// Hanley & McNeil (1982): A = 0.9, 50 positives and 50 negatives gives SE 0.03212386315081136.
  @Test func aucStandardErrorFollowsHanleyMcNeil() {
    let estimate = SuspectLeakCheck.AUCEstimate(auc: 0.9, positives: 50, negatives: 50)
    #expect(abs(estimate.standardError - 0.03212386315081136) < 1e-12)
    #expect(SuspectLeakCheck.AUCEstimate(auc: 1, positives: 9, negatives: 18).standardError > 0.01)
    #expect(SuspectLeakCheck.AUCEstimate(auc: 1, positives: 5000, negatives: 5000).standardError < 1e-4)
  }

  /// The 97.5% lower bound: mean − t(0.975, k − 1) · SE, SE the larger of the spread between folds
  /// and Hanley & McNeil's within them.
  @Test func aucLowerBoundIsTBasedOverFolds() throws {
    typealias Estimate = SuspectLeakCheck.AUCEstimate
    // Folds that disagree: the spread decides. s = 0.0089443, SE = s/√5 = 0.004, t(0.975, 4) = 2.7764451.
    let spread = [1, 1, 0.99, 0.98, 1].map { Estimate(auc: $0, positives: 5000, negatives: 5000) }
    let disagreeing = try #require(Estimate.mean(spread))
    #expect(abs(disagreeing.auc - 0.994) < 1e-12)
    #expect(abs(disagreeing.standardError - 0.004) < 1e-12)
    #expect(abs(disagreeing.lowerBound - (0.994 - 2.7764451051977934 * 0.004)) < 1e-9)
    // Five perfect folds of 27 rows (iris-sized): no spread, but their size bounds the certainty.
    let perfect = try #require(Estimate.mean((0..<5).map { _ in Estimate(auc: 1, positives: 9, negatives: 18) }))
    #expect(perfect.standardError > 0 && perfect.lowerBound < 0.99)
    // Five perfect folds of 4,000 rows (a leak on real data): the bound clears 0.99.
    let leak = try #require(Estimate.mean((0..<5).map { _ in Estimate(auc: 1, positives: 2000, negatives: 2000) }))
    #expect(leak.lowerBound > 0.999)
    #expect(Estimate.mean([]) == nil)
  }

  // MARK: - the driver

  /// A label copy with 2% flips, on rows whose file order is not their time order.
  static func leaky(_ n: Int) -> Dataset {
    let (rows, labels) = noisy(n, seed: 5)
    var generator = SeededGenerator(seed: 9)
    let withCopy = rows.enumerated().map { index, row in
      row + [Double(generator.uniform(below: 50) == 0 ? 1 - labels[index] : labels[index])]
    }
    return dataset(withCopy, labels: labels, time: (0..<n).map { Double(($0 * 7919) % n) })
  }

  @Test func theDriverIsTheSameForEveryJobCount() throws {
    let data = Self.leaky(600)
    let spec = try Self.spec("time: t\nfeatures: [f0, f1, f2]\nresampling: {folds: 4}\nmodels: [LR, NB, DT]\n")
    let plan = try spec.resampling.plan(rowCount: 600, labels: data.labels, time: data.time, specPath: "")
    let records = try [1, 2, 3].map { jobs in
      try LeakAudit.run(spec, dataset: data, plan: plan, mainPass: nil, options: .init(jobs: jobs)).json()
    }
    #expect(records[0] == records[1] && records[0] == records[2])
    let audit = try LeakAudit.run(spec, dataset: data, plan: plan, mainPass: nil, options: .init(jobs: 2))
    #expect(audit.findings.contains { $0.check == .suspectLeak && $0.subject == "f2" && $0.severity == .warning })
    #expect(audit.findings.contains { $0.check == .temporalSplit })
    // A spec that chooses among no configurations records every check but selection-bias.
    #expect(audit.checks.map(\.check) == LeakAudit.checks.map { $0.id }.filter { $0 != .selectionBias })
    #expect(audit.screen?.features.count == 3)
    #expect(audit.timeProfile?.folds.count == 4)
    #expect(audit.findings.map(\.severity) == audit.findings.map(\.severity).sorted(by: >), "worst first")
  }

  @Test func acceptancesMarkFindingsAndCountMatches() throws {
    let data = Self.leaky(300)
    let spec = try Self.spec(
      """
      features: [f0, f1, {f2: {known: after-outcome}}]
      models: [LR, NB]
      audit:
        skip: [temporal-split]
        accept:
          - {check: post-outcome-feature, subject: f2, reason: studied on purpose}
          - {check: class-coverage, reason: never happens here}
      """)
    let plan = try spec.resampling.plan(rowCount: 300, labels: data.labels, time: nil, specPath: "")
    let audit = try LeakAudit.run(spec, dataset: data, plan: plan, mainPass: nil, options: .init(jobs: 2))
    let finding = try #require(audit.findings.first { $0.check == .postOutcomeFeature })
    #expect(finding.accepted && finding.acceptedBecause == "studied on purpose")
    #expect(audit.standingErrors.isEmpty)
    #expect(audit.accepted.map(\.matched) == [1, 0])
    #expect(audit.checks.first { $0.check == .temporalSplit }?.status == "skipped")
  }

  /// Variants of one algorithm are chosen among on the spec's folds: `benchbook audit`, without a run's scores,
  /// fits those folds itself (it once indexed scores it did not have).
  @Test func variantsWithoutARunAreScoredOnTheSpecsFolds() throws {
    let data = Self.leaky(300)
    let spec = try Self.spec(
      "features: [f0, f1]\nmodels: [{NB: {label: NB}}, {NB: {var_smoothing: 0.5, label: NB-smooth}}]\n")
    let plan = try spec.resampling.plan(rowCount: 300, labels: data.labels, time: nil, specPath: "")
    let audit = try LeakAudit.run(spec, dataset: data, plan: plan, mainPass: nil, options: .init(jobs: 2))
    #expect(audit.checks.first { $0.check == .selectionBias }?.status == "ran")
    let finding = try #require(audit.findings.first { $0.check == .selectionBias })
    #expect(finding.subject == "NB, NB-smooth")
    #expect(finding.evidence.decode(SelectionBiasCheck.Evidence.self)?.chosen.count == plan.folds.count)
  }

  @Test func unknownCheckInAcceptSuggests() throws {
    let spec = try SpecParser.parse(
      yaml:
        "data: {path: a.csv}\ntarget: y\nfeatures: [a]\naudit:\n  accept:\n    - {check: post-outcome-feture, subject: a, reason: known}\n",
      path: "spec.yaml")
    let error = try #require(throws: SpecError.self) { try LeakAudit.validate(spec) }
    #expect(error.location.line == 6)
    #expect(error.description.contains("unknown audit check 'post-outcome-feture'"))
    #expect(error.description.contains("did you mean 'post-outcome-feature'?"))
    #expect(error.description.contains("(one of temporal-split, post-outcome-feature, suspect-leak"))
  }

  struct SampleEvidence: Codable, Equatable {
    var name: String
    var folds: [Int]
    var share: Double
    var flag: Bool
    var missing: Double?
  }

  @Test func evidenceRoundTripsThroughJSON() throws {
    let evidence = SampleEvidence(name: "a", folds: [0, 2], share: 0.25, flag: true, missing: nil)
    let value = EvidenceValue(encoding: evidence)
    let data = try JSONEncoder().encode(value)
    let decoded = try JSONDecoder().decode(EvidenceValue.self, from: data)
    #expect(decoded == value)
    #expect(decoded.decode(SampleEvidence.self) == evidence)
  }
}
