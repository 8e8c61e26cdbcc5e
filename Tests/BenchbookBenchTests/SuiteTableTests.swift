import Foundation
import Testing

@testable import benchbook_bench

/// The bench suite's table from fixed measurements: medians, ratios, shares and the targets of
/// issue 32. Nothing here is timed.
@Suite struct SuiteTableTests {
  /// A Benchbook run whose audit took `audit` of its `wall` seconds (and the same share of its CPU).
  static func ours(
    wall: Double, audit: Double = 0, peak: Int = 100, knn: Double = 1, lr: Double = 1,
    ensembles: (rf: Double, hgb: Double)? = nil
  ) -> SuiteMeasurement.BenchbookRun {
    var folds = ["LR": lr, "KNN": knn, "NB": 0.5]
    if let ensembles { (folds["RF"], folds["HGB"]) = ensembles }
    var wallPhases = Dictionary(uniqueKeysWithValues: PhaseTimes.names.map { ($0, 0.0) })
    wallPhases["audit"] = audit
    wallPhases["cross-validation"] = wall - audit
    return SuiteMeasurement.BenchbookRun(
      wallSeconds: wall, cpuSeconds: 2 * wall, peakResidentBytes: peak,
      phases: PhaseTimes(wallSeconds: wallPhases, cpuSeconds: wallPhases.mapValues { 2 * $0 }),
      foldSeconds: folds, logLoss: ["LR": 0.5])
  }

  static func theirs(
    wall: Double, peak: Int = 200, knn: Double = 2, newtonCG: Double? = nil, foldsMatch: Bool = true,
    ensembles: (rf: Double, hgb: Double)? = nil
  ) -> SuiteMeasurement.SklearnRun {
    var folds = ["LR": 1, "KNN": knn, "NB": 0.1]
    if let ensembles { (folds["RF"], folds["HGB"]) = ensembles }
    return SuiteMeasurement.SklearnRun(
      wallSeconds: wall, cpuSeconds: wall, peakResidentBytes: peak, foldSeconds: folds,
      foldCPUSeconds: [:], logLoss: ["LR": 0.5], newtonCGSeconds: newtonCG, foldsMatch: foldsMatch, version: "1.9.1")
  }

  static func dataset(
    _ name: String, classes: Int = 2, _ pairs: [(SuiteMeasurement.BenchbookRun, SuiteMeasurement.SklearnRun)]
  ) -> SuiteMeasurement {
    SuiteMeasurement(
      name: name, spec: "\(name).yaml", kind: "", rows: 100, columns: 4, classes: classes,
      pairs: pairs.enumerated().map { index, pair in
        SuiteMeasurement.Pair(
          loadBefore: Double(index), loadAfter: Double(index) + 0.5, benchbook: pair.0, sklearn: pair.1)
      })
  }

  @Test func medianOfOddAndEvenCounts() {
    #expect(SuiteTable.median([3, 1, 2]) == 2)
    #expect(SuiteTable.median([4, 1, 3, 2]) == 2.5)
    #expect(SuiteTable.median([7]) == 7)
    #expect(SuiteTable.median([]) == nil)
    #expect(SuiteTable.medianInt([100, 301]) == 201)
  }

  @Test func rowTakesMediansThenRatios() {
    // Three pairs: Benchbook 2, 4, 9 s (median 4); scikit-learn 10, 12, 30 s (median 12).
    let table = SuiteTable([
      Self.dataset(
        "a",
        [
          (Self.ours(wall: 2, audit: 1, peak: 100), Self.theirs(wall: 10, peak: 400)),
          (Self.ours(wall: 4, audit: 1, peak: 300), Self.theirs(wall: 12, peak: 600)),
          (Self.ours(wall: 9, audit: 0.9, peak: 200), Self.theirs(wall: 30, peak: 500)),
        ])
    ])
    let row = table.rows[0]
    #expect(row.benchbookWallSeconds == 4)
    #expect(row.sklearnWallSeconds == 12)
    #expect(row.speedup == 3)
    // Shares 0.5, 0.25, 0.1: the median share, not the share of the medians.
    #expect(row.auditWallShare == 0.25)
    #expect(row.auditCPUShare == 0.25)
    #expect(row.benchbookPeakBytes == 200 && row.sklearnPeakBytes == 500)
    #expect(row.memoryRatio == 0.4)
    #expect(row.loads == [[0, 0.5], [1, 1.5], [2, 2.5]])
    #expect(row.phaseCPUSeconds["audit"] == 2)
    #expect(row.benchbookFoldSeconds["NB"] == 0.5 && row.sklearnFoldSeconds["NB"] == 0.1)
    #expect(table.medianSpeedup == 3)
  }

  @Test func everyTargetMet() {
    let table = SuiteTable([
      Self.dataset(
        "two-classes",
        [(Self.ours(wall: 1, audit: 0.2, ensembles: (3, 1)), Self.theirs(wall: 4, ensembles: (2, 2)))]),
      Self.dataset(
        "many-classes", classes: 5,
        [(Self.ours(wall: 1, audit: 0.25, knn: 2, lr: 1), Self.theirs(wall: 3, knn: 2, newtonCG: 1))]),
    ])
    #expect(table.medianSpeedup == 3.5)
    #expect(table.targets.allSatisfy { $0.met == true && $0.missedBy.isEmpty })
    #expect(table.allMet)
  }

  @Test func eachTargetNamesTheDatasetsThatMissIt() {
    let table = SuiteTable([
      // Slower than scikit-learn, its audit 40% of the run, kNN slower.
      Self.dataset("slow", [(Self.ours(wall: 10, audit: 4, knn: 3), Self.theirs(wall: 5, knn: 2))]),
      // Equal time is not faster; many-class LR slower than newton-cg.
      Self.dataset(
        "tied", classes: 3, [(Self.ours(wall: 2, audit: 0.1, lr: 5), Self.theirs(wall: 2, newtonCG: 4))]),
      Self.dataset("fast", [(Self.ours(wall: 1, audit: 0.1), Self.theirs(wall: 8))]),
    ])
    // Speed-ups 0.5, 1, 8: median 1.
    #expect(table.medianSpeedup == 1)
    let byName = Dictionary(uniqueKeysWithValues: table.targets.map { ($0.name, $0) })
    #expect(byName["faster than scikit-learn on every dataset"]?.missedBy == ["slow", "tied"])
    #expect(byName["median speed-up at least 3×"]?.met == false)
    #expect(byName["the audit at most a quarter of the run (wall) on every dataset"]?.missedBy == ["slow"])
    #expect(byName["kNN's folds at most scikit-learn's time on every dataset"]?.missedBy == ["slow"])
    #expect(byName["many-class LR at most scikit-learn's newton-cg (tol 1e-14)"]?.missedBy == ["tied"])
    #expect(!table.allMet)
  }

  /// Random forest and histogram boosting are judged together, and only where both sides timed both.
  @Test func ensemblesJudgedTogether() {
    let table = SuiteTable([
      Self.dataset("slower", [(Self.ours(wall: 1, ensembles: (2, 2)), Self.theirs(wall: 4, ensembles: (3, 0.5)))]),
      Self.dataset("faster", [(Self.ours(wall: 1, ensembles: (3, 1)), Self.theirs(wall: 4, ensembles: (1, 3.5)))]),
      Self.dataset("untimed", [(Self.ours(wall: 1, ensembles: (9, 9)), Self.theirs(wall: 4))]),
    ])
    let target = table.targets.first { $0.name.hasPrefix("the ensembles' folds") }
    #expect(target?.met == false && target?.missedBy == ["slower"])
    #expect(table.rows[1].ensembleSeconds.ours == 4 && table.rows[1].ensembleSeconds.theirs == 4.5)
    #expect(table.rows[2].ensembleSeconds.theirs == nil)
  }

  @Test func twoClassDatasetsDoNotJudgeManyClassLR() {
    let table = SuiteTable([Self.dataset("binary", [(Self.ours(wall: 1, lr: 100), Self.theirs(wall: 5))])])
    #expect(table.rows[0].lrSeconds == nil)
    let target = table.targets.first { $0.name.hasPrefix("many-class LR") }
    #expect(target?.met == nil)
    #expect(table.allMet)
  }

  @Test func reportMarksMissesAndFoldsThatDiffer() throws {
    let measurements = [
      Self.dataset("slow", [(Self.ours(wall: 10, audit: 4), Self.theirs(wall: 5, foldsMatch: false))]),
      Self.dataset("fast", [(Self.ours(wall: 1, audit: 0.1), Self.theirs(wall: 8))]),
    ]
    let report = SuiteReport(
      context: SuiteReport.Context(
        date: "2026-11-26", machine: "test CPU", cores: 2, benchbookCommit: "abc", sklearnVersion: "1.9.1",
        repetitions: 1),
      table: SuiteTable(measurements), measurements: measurements)
    let markdown = report.markdown
    #expect(markdown.contains("| slow (folds differ) |  | 100 × 4 × 2 | 10.0 s | 5.00 s | 0.50× ✗ | 40% (40%) ✗ |"))
    #expect(markdown.contains("| fast |  | 100 × 4 × 2 | 1.00 s | 8.00 s | 8.00× | 10% (10%) |"))
    #expect(markdown.contains("Median speed-up: 4.25× (target: at least 3×)."))
    #expect(markdown.contains("| faster than scikit-learn on every dataset | MISSED | slow |"))
    let json = try JSONSerialization.jsonObject(with: report.json()) as? [String: Any]
    let table = json?["table"] as? [String: Any]
    #expect(table?["median_speedup"] as? Double == 4.25)
    #expect((json?["measurements"] as? [Any])?.count == 2)
  }

  @Test func groupsThousands() {
    let report = SuiteReport(
      context: SuiteReport.Context(
        date: "", machine: "", cores: 2, benchbookCommit: "", sklearnVersion: "", repetitions: 1),
      table: SuiteTable([]), measurements: [])
    #expect(report.grouped(53940) == "53,940")
    #expect(report.grouped(327346) == "327,346")
    #expect(report.grouped(1234567) == "1,234,567")
    #expect(report.grouped(999) == "999")
  }
}
