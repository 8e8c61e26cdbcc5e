import BenchbookData
import BenchbookSpec

/// `class-coverage`: a fold whose training rows lack a class. Its models give
/// that class probability 0 and pay the clipping cost (36 nats) for each of
/// its test rows. Warning, one finding per class, naming the folds.
public struct ClassCoverageCheck: DataPassCheck {
  public static let id = AuditCheckID.classCoverage
  public static let question = "Does every fold's training set hold every class?"

  public let context: AuditContext

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) { self.context = context }

  public struct Evidence: Codable, Sendable, Hashable {
    public var `class`: String
    /// Folds (0-based plan indices) whose training rows hold none of the class.
    public var folds: [Int]
    /// Test rows of the class in those folds.
    public var testRows: Int
    public var rowsInData: Int
  }

  public static func run(_ context: AuditContext) -> CheckResult {
    let dataset = context.dataset
    let classCount = dataset.classes.count
    var totals = [Int](repeating: 0, count: classCount)
    for label in dataset.labels { totals[label] += 1 }
    var lacking = [[Int]](repeating: [], count: classCount)
    var testRows = [Int](repeating: 0, count: classCount)
    for fold in context.plan.folds {
      var present = [Bool](repeating: false, count: classCount)
      fold.train.forEachRow { present[dataset.labels[$0]] = true }
      for c in 0..<classCount where !present[c] {
        lacking[c].append(fold.index)
        testRows[c] += fold.test.reduce(0) { $0 + (dataset.labels[$1] == c ? 1 : 0) }
      }
    }
    var findings: [AuditFinding] = []
    for c in 0..<classCount where !lacking[c].isEmpty {
      let name = dataset.classes[c]
      let folds = lacking[c]
      let shown = folds.prefix(10).map { String($0 + 1) }
      let foldList = AuditWording.list(shown) + (folds.count > 10 ? " and \(folds.count - 10) more" : "")
      let message =
        "The training rows of fold\(folds.count == 1 ? "" : "s") \(foldList) hold no row of class `\(name)`, so every "
        + "model there gives `\(name)` probability 0 and pays the clipping cost (36 nats) for each of its "
        + "\(AuditWording.count(testRows[c])) test rows. Shuffle or stratify the folds so every class trains."
      findings.append(
        AuditFinding(
          check: .classCoverage, severity: .warning, subject: name, message: message,
          evidence: EvidenceValue(
            encoding: Evidence(class: name, folds: folds, testRows: testRows[c], rowsInData: totals[c]))))
    }
    return CheckResult(
      findings: findings,
      note: "\(classCount) classes over the training rows of \(context.plan.folds.count) folds")
  }
}

// MARK: - Report text

extension ClassCoverageCheck {
  public static func title(_ finding: AuditFinding) -> String {
    "some folds never train on class `\(finding.subject)`"
  }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    guard let evidence = finding.evidence.decode(Evidence.self) else { return "" }
    let folds = evidence.folds.map { AuditWording.foldName($0, nil, results) }
    return AuditWording.bullets([
      "folds without `\(evidence.class)` in training: \(AuditWording.list(folds))",
      "their test rows of `\(evidence.class)`: \(Format.count(evidence.testRows)); rows of it in the data: \(Format.count(evidence.rowsInData))",
    ])
  }
}

extension AuditCheckID {
  /// A fold whose training rows lack a class.
  public static let classCoverage = AuditCheckID(rawValue: "class-coverage")
}
