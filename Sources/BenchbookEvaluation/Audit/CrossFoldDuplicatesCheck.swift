import BenchbookData
import BenchbookSpec

/// `cross-fold-duplicates`: test rows identical to a training row of their fold, in every feature and the label. A
/// model can score them by memory, but on coarse data (three categories, small integers) distinct records coincide
/// by chance, so the share of test rows with a training twin is judged against the share chance explains
/// (`DuplicateChance`).
///
/// Nothing is said while the share is at or below the warning share (default 0%). Above it:
/// - a warning when the share is beyond chance (more than 3 standard errors and a percentage point over the
///   expected share), or when test rows whose twin chance cannot explain (`DuplicateChance.unlikely`: rows of many
///   or fine-grained columns) have twins far more often than chance allows (Poisson tail below 1/1000);
/// - an error only for twins that cannot be coincidence beyond the error share (default 5%) of test rows: such
///   copies, or an excess over the expected share more than `errorZ` standard errors out;
/// - otherwise nothing, and the check's note gives both shares.
public struct CrossFoldDuplicatesCheck: DataPassCheck {
  public static let id = AuditCheckID.crossFoldDuplicates
  public static let question = "Are test rows identical to training rows of the same fold?"

  public let context: AuditContext

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) { self.context = context }

  public struct FoldDuplicates: Codable, Sendable, Hashable {
    public var fold: Int
    public var `repeat`: Int
    public var testRows: Int
    public var duplicates: Int
    public var share: Double
  }

  public struct Evidence: Codable, Sendable, Hashable {
    public var testRows: Int
    public var duplicates: Int
    public var share: Double
    public var folds: [FoldDuplicates]
    /// The share of test rows chance alone would give a training twin (`DuplicateChance`).
    public var expectedShare: Double?
    /// Test rows whose twin chance is below 1/1000 (`DuplicateChance.unlikely`) that have a twin, and how many of
    /// them chance explains.
    public var unlikelyDuplicates: Int?
    public var unlikelyExpected: Double?
  }

  /// Standard errors over the expected count a share must lie beyond to be beyond chance.
  static let beyondChanceZ = 3.0
  /// … and shares of test rows it must exceed the expected share by.
  static let beyondChanceMargin = 0.01
  /// Poisson tail below which twins of rows chance cannot explain are not coincidence.
  static let coincidenceTail = 0.001
  /// Standard errors an excess over the expected share must lie beyond to be an error (with the error share):
  /// at ten, no misjudged value frequency explains it.
  static let errorZ = 10.0

  public static func run(_ context: AuditContext) -> CheckResult {
    let groups = duplicateGroups(context.dataset)
    let twins = TwinRows(groups, rowCount: context.dataset.x.rows)
    var hasGroup = [Bool](repeating: false, count: groups.count)
    var folds: [FoldDuplicates] = []
    for fold in context.plan.folds {
      twins.forEach(in: fold.train) { hasGroup[Int(groups.ids[$0])] = true }
      var duplicates = 0
      twins.forEach(in: fold.test) { duplicates += hasGroup[Int(groups.ids[$0])] ? 1 : 0 }
      twins.forEach(in: fold.train) { hasGroup[Int(groups.ids[$0])] = false }
      folds.append(
        FoldDuplicates(
          fold: fold.index, repeat: fold.repeatIndex, testRows: fold.test.count, duplicates: duplicates,
          share: fold.test.isEmpty ? 0 : Double(duplicates) / Double(fold.test.count)))
    }
    let testRows = folds.reduce(0) { $0 + $1.testRows }
    let duplicates = folds.reduce(0) { $0 + $1.duplicates }
    let share = testRows == 0 ? 0 : Double(duplicates) / Double(testRows)
    var note = "\(AuditWording.count(groups.count)) distinct rows among \(AuditWording.count(context.dataset.x.rows))"
    let thresholds = context.thresholds
    guard duplicates > 0, share > thresholds.duplicatesWarningShare else { return CheckResult(note: note) }
    // Only data with twins pays for the chance model.
    let chance = DuplicateChance(context.dataset, groups: groups)
    var tally = DuplicateChance.Tally()
    for fold in context.plan.folds {
      var twinned: [Int] = []
      twins.forEach(in: fold.train) { hasGroup[Int(groups.ids[$0])] = true }
      twins.forEach(in: fold.test) { if hasGroup[Int(groups.ids[$0])] { twinned.append($0) } }
      twins.forEach(in: fold.train) { hasGroup[Int(groups.ids[$0])] = false }
      chance.tally(&tally, test: fold.test, twinned: twinned, trainingRows: fold.train.count)
    }
    let expected = tally.expected / Double(max(1, testRows))
    let z = (Double(duplicates) - tally.expected) / max(tally.variance, 1e-12).squareRoot()
    let beyondChance = z > beyondChanceZ && share - expected > beyondChanceMargin
    let tail = DuplicateChance.poissonTail(atLeast: tally.unlikelyTwinned, mean: tally.unlikelyExpected)
    let copies = tally.unlikelyTwinned > 0 && tail < coincidenceTail
    let shares =
      "\(AuditWording.percent(share)) of test rows have a training twin, "
      + "\(AuditWording.percent(expected)) expected by chance from the data's value frequencies"
    guard beyondChance || copies else {
      note += "; \(shares): within chance"
      return CheckResult(note: note)
    }
    let excessCopies = Double(tally.unlikelyTwinned) - tally.unlikelyExpected
    // An error only where coincidence is ruled out: copies chance cannot explain, or an excess over the expected
    // share so far beyond its standard error (`errorZ`) that chance is out of the question, beyond the error share.
    let copiedError = copies && excessCopies / Double(max(1, testRows)) > thresholds.duplicatesErrorShare
    let excessError = beyondChance && z > errorZ && share - expected > thresholds.duplicatesErrorShare
    let severity: AuditSeverity = copiedError || excessError ? .error : .warning
    let affected = folds.filter { $0.duplicates > 0 }.count
    var message =
      "\(AuditWording.rows(duplicates)) of \(AuditWording.count(testRows)) test rows (\(AuditWording.percent(share))), "
      + "in \(affected) of \(folds.count) folds, \(duplicates == 1 ? "is" : "are") identical to a training row of "
      + "the same fold in every feature and the label; chance, from the data's own value frequencies, explains "
      + "\(AuditWording.percent(expected)). "
    if copies {
      message +=
        "\(AuditWording.rows(tally.unlikelyTwinned)) of them "
        + "\(tally.unlikelyTwinned == 1 ? "has" : "have") values too rare or too many to coincide "
        + "(chance expects \(AuditWording.fixed(tally.unlikelyExpected, 2)) such twins): the same record was "
        + "collected twice. A model can answer them from memory, so they flatter it"
    } else {
      message +=
        "The excess is beyond chance: records were probably collected twice, and a model can answer them "
        + "from memory, so they flatter it"
    }
    message +=
      severity == .error
      ? "; at this share the scores cannot be trusted. Remove the duplicated records before splitting."
      : ". Remove the duplicated records before splitting, or accept them if distinct records truly coincide."
    let finding = AuditFinding(
      check: .crossFoldDuplicates, severity: severity, subject: "rows", message: message,
      evidence: EvidenceValue(
        encoding: Evidence(
          testRows: testRows, duplicates: duplicates, share: share, folds: folds, expectedShare: expected,
          unlikelyDuplicates: tally.unlikelyTwinned, unlikelyExpected: tally.unlikelyExpected)))
    return CheckResult(findings: [finding], note: note)
  }

  /// The rows whose group holds another row, as a bit set: only they can have a twin, since a fold's training and
  /// test rows are disjoint in every plan. On data of distinct rows a fold's pass reads a bit a row, a word at a
  /// time, instead of marking and unmarking every training row's group (the flagship: 6 twins among 327,346 rows).
  struct TwinRows {
    let rows: RowBitSet

    init(_ groups: (ids: [Int32], count: Int), rowCount: Int) {
      var sizes = [UInt8](repeating: 0, count: groups.count)
      for id in groups.ids where sizes[Int(id)] < 2 { sizes[Int(id)] += 1 }
      var rows = RowBitSet(count: rowCount)
      for (row, id) in groups.ids.enumerated() where sizes[Int(id)] > 1 { rows.insert(row) }
      self.rows = rows
    }

    /// Calls `body` with each of `rows` that has a twin somewhere, a run of rows at a time.
    func forEach(in rows: RowIndices, _ body: (Int) -> Void) {
      rows.forEachRun { run in self.rows.forEach(in: run, body) }
    }
  }

  /// Each row's group of identical rows (encoded features and label): hashed,
  /// sorted by hash, and compared exactly within equal hashes. The hashes are 32-bit and group ids 32-bit, so
  /// the pass holds about 20 bytes a row, not 44 (on large data it runs beside the audit's fits, where it can set
  /// the peak); the few rows of different content sharing a hash are told apart by the exact comparison.
  static func duplicateGroups(_ dataset: Dataset) -> (ids: [Int32], count: Int) {
    let n = dataset.x.rows
    let width = dataset.x.columns
    let values = dataset.x.values
    var hashes = [UInt32](repeating: 0, count: n)
    for row in 0..<n {
      var hasher = ValueHasher(seed: UInt64(dataset.labels[row]))
      for c in 0..<width { hasher.combine(values[row * width + c]) }
      let h = hasher.finalized
      hashes[row] = UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }
    func same(_ a: Int, _ b: Int) -> Bool {
      guard dataset.labels[a] == dataset.labels[b] else { return false }
      for c in 0..<width where values[a * width + c] != values[b * width + c] { return false }
      return true
    }
    let order = SortedOrder.ascending(keys: hashes)
    var ids = [Int32](repeating: -1, count: n)
    var count = 0
    var start = 0
    while start < n {
      var end = start
      while end + 1 < n && hashes[Int(order[end + 1])] == hashes[Int(order[start])] { end += 1 }
      // Rows sharing a hash: group them by exact equality (almost always one group).
      for position in start...end where ids[Int(order[position])] < 0 {
        let row = Int(order[position])
        ids[row] = Int32(count)
        for other in (position + 1)..<(end + 1) where ids[Int(order[other])] < 0 && same(row, Int(order[other])) {
          ids[Int(order[other])] = Int32(count)
        }
        count += 1
      }
      start = end + 1
    }
    return (ids, count)
  }
}

// MARK: - Report text

extension CrossFoldDuplicatesCheck {
  public static func title(_ finding: AuditFinding) -> String { "test rows are copies of training rows" }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    guard let evidence = finding.evidence.decode(Evidence.self) else { return "" }
    var table = MarkdownTable([("fold", .right), ("test rows", .right), ("identical to a training row", .right)])
    let affected = evidence.folds.filter { $0.duplicates > 0 }
    for fold in affected.prefix(20) {
      table.append([
        AuditWording.foldName(fold.fold, fold.repeat, results), Format.count(fold.testRows),
        "\(Format.count(fold.duplicates)) (\(Format.percent(fold.share)))",
      ])
    }
    var text = table.markdown
    if affected.count > 20 { text += "\n…and \(affected.count - 20) more folds, listed in results.json.\n" }
    if let expected = evidence.expectedShare {
      text +=
        "\n"
        + AuditWording.bullets([
          "test rows with a training twin: \(Format.percent(evidence.share)); expected by chance: "
            + "\(Format.percent(expected))",
          "twins of rows chance cannot explain (twin chance below 1/1000): \(evidence.unlikelyDuplicates ?? 0), "
            + "chance expects \(Format.fixed(evidence.unlikelyExpected ?? 0, 2))",
        ])
    }
    return text
  }
}

extension AuditCheckID {
  /// Test rows identical to a training row.
  public static let crossFoldDuplicates = AuditCheckID(rawValue: "cross-fold-duplicates")
}
