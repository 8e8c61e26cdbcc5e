import BenchbookModels

/// The bench suite's arithmetic: each dataset's medians over its pairs, the ratios the table shows,
/// the median speed-up, and the done-when targets of issues 32 and 60 each dataset meets or misses.
/// Pure, so its unit tests give it fixed measurements.
struct SuiteTable: Codable, Equatable {
  var rows: [Row]
  /// The median over datasets of each one's speed-up.
  var medianSpeedup: Double?
  var targets: [Target]

  /// One dataset. Every figure is the median over its pairs; ratios are taken between medians.
  struct Row: Codable, Equatable {
    var name: String
    var kind: String
    var rows: Int
    var columns: Int
    var classes: Int
    var benchbookWallSeconds: Double
    var sklearnWallSeconds: Double
    /// scikit-learn's wall over Benchbook's: above 1, Benchbook is faster.
    var speedup: Double
    /// The audit's share of Benchbook's run, by wall time and by CPU time (medians of each pair's share).
    var auditWallShare: Double
    var auditCPUShare: Double
    /// kNN's folds: Benchbook's fit and predict seconds summed over folds; scikit-learn's `cross_validate`.
    var knnSeconds: Double?
    var sklearnKNNSeconds: Double?
    /// Logistic regression's folds against scikit-learn's newton-cg at tol 1e-14 (more than two classes only).
    var lrSeconds: Double?
    var newtonCGSeconds: Double?
    var benchbookPeakBytes: Int
    var sklearnPeakBytes: Int
    /// Benchbook's peak resident memory over scikit-learn's.
    var memoryRatio: Double
    /// CPU and wall seconds by phase (`PhaseTimes.names`) and fold seconds by model, medians.
    var phaseCPUSeconds: [String: Double]
    var phaseWallSeconds: [String: Double]
    var benchbookFoldSeconds: [String: Double]
    var sklearnFoldSeconds: [String: Double]
    /// Each pair's load average before and after.
    var loads: [[Double]]

    /// The ensembles' folds summed (issue 60's target): Benchbook's random forest and histogram boosting against
    /// scikit-learn's `cross_validate` of the same two; `theirs` is nil unless both sides timed both.
    var ensembleSeconds: (ours: Double, theirs: Double?) {
      let labels = [RandomForest.descriptor.defaultLabel, HistGradientBoosting.descriptor.defaultLabel]
      let ours = labels.compactMap { benchbookFoldSeconds[$0] }
      let theirs = labels.compactMap { sklearnFoldSeconds[$0] }
      guard ours.count == labels.count, theirs.count == labels.count else { return (0, nil) }
      return (ours.reduce(0, +), theirs.reduce(0, +))
    }
    /// False when scikit-learn's folds did not hold Benchbook's test class counts in some pair.
    var foldsMatch: Bool
  }

  /// A done-when target of issue 32, met or missed, with the datasets that miss it.
  struct Target: Codable, Equatable {
    var name: String
    /// nil when nothing in the suite measures it (no kNN, no dataset with more than two classes).
    var met: Bool?
    var missedBy: [String]
  }

  static let auditShareLimit = 0.25
  static let medianSpeedupTarget = 3.0

  init(_ measurements: [SuiteMeasurement]) {
    rows = measurements.filter { !$0.pairs.isEmpty }.map(Self.row)
    medianSpeedup = Self.median(rows.map(\.speedup))
    targets = Self.targets(rows, medianSpeedup: medianSpeedup)
  }

  static func row(_ measurement: SuiteMeasurement) -> Row {
    let pairs = measurement.pairs
    let ours = pairs.map(\.benchbook)
    let theirs = pairs.map(\.sklearn)
    let benchbookWall = median(ours.map(\.wallSeconds))!
    let sklearnWall = median(theirs.map(\.wallSeconds))!
    let benchbookPeak = medianInt(ours.map(\.peakResidentBytes))
    let sklearnPeak = medianInt(theirs.map(\.peakResidentBytes))
    let labels = Set(ours.flatMap(\.foldSeconds.keys))
    let sklearnLabels = Set(theirs.flatMap(\.foldSeconds.keys))
    let manyClasses = measurement.classes > 2
    return Row(
      name: measurement.name, kind: measurement.kind, rows: measurement.rows, columns: measurement.columns,
      classes: measurement.classes, benchbookWallSeconds: benchbookWall, sklearnWallSeconds: sklearnWall,
      speedup: sklearnWall / benchbookWall,
      auditWallShare: median(ours.map { share($0.phases.wallSeconds["audit"], of: $0.wallSeconds) })!,
      auditCPUShare: median(ours.map { share($0.phases.cpuSeconds["audit"], of: $0.cpuSeconds) })!,
      knnSeconds: median(ours.compactMap { $0.foldSeconds["KNN"] }),
      sklearnKNNSeconds: median(theirs.compactMap { $0.foldSeconds["KNN"] }),
      lrSeconds: manyClasses ? median(ours.compactMap { $0.foldSeconds["LR"] }) : nil,
      newtonCGSeconds: manyClasses ? median(theirs.compactMap(\.newtonCGSeconds)) : nil,
      benchbookPeakBytes: benchbookPeak, sklearnPeakBytes: sklearnPeak,
      memoryRatio: Double(benchbookPeak) / Double(max(sklearnPeak, 1)),
      phaseCPUSeconds: Dictionary(
        uniqueKeysWithValues: PhaseTimes.names.map { name in
          (name, median(ours.map { $0.phases.cpuSeconds[name] ?? 0 })!)
        }),
      phaseWallSeconds: Dictionary(
        uniqueKeysWithValues: PhaseTimes.names.map { name in
          (name, median(ours.map { $0.phases.wallSeconds[name] ?? 0 })!)
        }),
      benchbookFoldSeconds: Dictionary(
        uniqueKeysWithValues: labels.map { label in (label, median(ours.compactMap { $0.foldSeconds[label] })!) }),
      sklearnFoldSeconds: Dictionary(
        uniqueKeysWithValues: sklearnLabels.map { label in
          (label, median(theirs.compactMap { $0.foldSeconds[label] })!)
        }),
      loads: pairs.map { [$0.loadBefore, $0.loadAfter] },
      foldsMatch: theirs.allSatisfy(\.foldsMatch))
  }

  static func targets(_ rows: [Row], medianSpeedup: Double?) -> [Target] {
    func everyDataset(_ name: String, _ measured: [Row], _ meets: (Row) -> Bool) -> Target {
      let missed = measured.filter { !meets($0) }.map(\.name)
      return Target(name: name, met: measured.isEmpty ? nil : missed.isEmpty, missedBy: missed)
    }
    let knn = rows.filter { $0.knnSeconds != nil && $0.sklearnKNNSeconds != nil }
    let manyClassLR = rows.filter { $0.lrSeconds != nil && $0.newtonCGSeconds != nil }
    let ensembles = rows.filter { $0.ensembleSeconds.theirs != nil }
    return [
      everyDataset("faster than scikit-learn on every dataset", rows) { $0.speedup > 1 },
      Target(
        name: "median speed-up at least 3×", met: medianSpeedup.map { $0 >= medianSpeedupTarget },
        missedBy: medianSpeedup.map { $0 >= medianSpeedupTarget } == false ? ["the suite"] : []),
      everyDataset("the audit at most a quarter of the run (wall) on every dataset", rows) {
        $0.auditWallShare <= auditShareLimit
      },
      everyDataset("kNN's folds at most scikit-learn's time on every dataset", knn) {
        $0.knnSeconds! <= $0.sklearnKNNSeconds!
      },
      everyDataset("many-class LR at most scikit-learn's newton-cg (tol 1e-14)", manyClassLR) {
        $0.lrSeconds! <= $0.newtonCGSeconds!
      },
      everyDataset("the ensembles' folds (RF and HGB together) at most scikit-learn's on every dataset", ensembles) {
        $0.ensembleSeconds.ours <= $0.ensembleSeconds.theirs!
      },
    ]
  }

  /// The median: the middle value, or the mean of the middle two; nil for no values.
  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  static func medianInt(_ values: [Int]) -> Int {
    Int((median(values.map(Double.init)) ?? 0).rounded())
  }

  /// `part / whole`, 0 when the part was not measured or the whole is empty.
  static func share(_ part: Double?, of whole: Double) -> Double {
    guard let part, whole > 0 else { return 0 }
    return part / whole
  }

  /// Whether every target measured is met.
  var allMet: Bool { targets.allSatisfy { $0.met != false } }
}
