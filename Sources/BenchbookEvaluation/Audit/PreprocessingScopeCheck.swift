import BenchbookData
import BenchbookSpec

/// `preprocessing-scope`: transforms must learn from the training fold alone.
///
/// - Every fitted pipeline records the rows it was fitted on (`GatheredRows`);
///   any record other than its fold's training rows is an error. It holds by
///   construction; this check is what would notice if it ever stopped holding.
/// - Data that arrive already standardised (every numeric feature with mean ≈ 0
///   and sd ≈ 1 over all rows) were probably scaled before splitting, so test
///   rows shaped the scaling: a warning.
public struct PreprocessingScopeCheck: AuditCheck {
  public static let id = AuditCheckID.preprocessingScope
  public static let question =
    "Was every transform fitted on its training fold only, and did the data arrive already scaled?"

  let context: AuditContext

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) { self.context = context }

  /// The records of the spec's folds' fitted pipelines; when nothing fitted them (`benchbook audit` without a
  /// temporal comparison), the preprocessing alone is fitted on every fold.
  public func conclude(_ outputs: AuditOutputs, scores: AuditScores) -> CheckResult {
    var records = scores.fitRecords ?? []
    if scores.fitRecords == nil {
      let evaluator = FoldEvaluator(dataset: context.dataset, preprocessing: context.spec.preprocessing)
      for fold in context.plan.folds {
        let (pipeline, _) = evaluator.fitPreprocessing(GatheredRows(context.dataset, rows: fold.train))
        records.append(PreprocessingFitRecord(model: "preprocessing", fold: fold.index, fittedOn: pipeline.fittedOn))
      }
    }
    return Self.run(context, records: records)
  }

  public struct ScopeEvidence: Codable, Sendable, Hashable {
    public var steps: [String]
    public var model: String
    public var fold: Int
    public var fittedRows: Int
    public var trainingRows: Int
  }

  public struct StandardizedEvidence: Codable, Sendable, Hashable {
    public struct Feature: Codable, Sendable, Hashable {
      public var name: String
      public var mean: Double
      public var sd: Double
    }
    public var features: [Feature]
    public var tolerance: Double
  }

  /// - Parameter records: one per fitted pipeline of the cross-validation (model × fold).
  public static func run(_ context: AuditContext, records: [PreprocessingFitRecord]) -> CheckResult {
    var findings: [AuditFinding] = []
    let steps = context.spec.preprocessing.map(\.rawValue)
    let expected = Dictionary(
      context.plan.folds.map { ($0.index, RowSetFingerprint($0.train)) }, uniquingKeysWith: { first, _ in first })
    var wrong: [PreprocessingFitRecord] = []
    for record in records where expected[record.fold] != record.fittedOn { wrong.append(record) }
    if let first = wrong.first {
      let training = expected[first.fold]?.count ?? 0
      let stepText = steps.isEmpty ? "The preprocessing" : "The \(steps.map { "`\($0)`" }.joined(separator: ", ")) step"
      let message =
        "\(stepText) of \(first.model) in fold \(first.fold + 1) was fitted on \(AuditWording.rows(first.fittedOn.count)) "
        + "that are not that fold's \(AuditWording.count(training)) training rows (\(wrong.count) fitted pipeline"
        + "\(wrong.count == 1 ? "" : "s") in all). Test rows may have shaped the transform. This is a Benchbook bug: "
        + "please report it."
      findings.append(
        AuditFinding(
          check: .preprocessingScope, severity: .error, subject: steps.first ?? "preprocessing", message: message,
          evidence: EvidenceValue(
            encoding: ScopeEvidence(
              steps: steps, model: first.model, fold: first.fold, fittedRows: first.fittedOn.count,
              trainingRows: training))))
    }
    if let standardized = standardizedInput(context) { findings.append(standardized) }
    let note =
      "every fitted pipeline's rows checked against its training fold; numeric features checked for scaling "
      + "before the split"
    return CheckResult(findings: findings, note: note)
  }

  /// Every numeric feature has |mean| ≤ tol and |sd − 1| ≤ tol over all rows (population sd).
  static func standardizedInput(_ context: AuditContext) -> AuditFinding? {
    let dataset = context.dataset
    let tolerance = context.thresholds.standardizedTolerance
    let numeric = dataset.features.filter { $0.type == .numeric }
    guard !numeric.isEmpty, dataset.x.rows >= 2 else { return nil }
    var measured: [StandardizedEvidence.Feature] = []
    for feature in numeric {
      let values = dataset.x.column(feature.columns.lowerBound)
      let n = Double(values.count)
      let mean = values.reduce(0, +) / n
      let sd = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n).squareRoot()
      guard abs(mean) <= tolerance, abs(sd - 1) <= tolerance else { return nil }
      measured.append(.init(name: feature.name, mean: mean, sd: sd))
    }
    let names = measured.map { "`\($0.name)`" }
    let all =
      measured.count == 1
      ? "The only numeric feature, \(names[0]), has" : "Every numeric feature (\(AuditWording.list(names))) has"
    let message =
      "\(all) mean 0 and standard deviation 1 over all rows: the data were most likely standardised before they were "
      + "split into folds, so each test fold helped set the scaling its training rows were given. Give Benchbook the "
      + "raw values and let `preprocess: [standardize]` fit the scaling on each training fold."
    return AuditFinding(
      check: .preprocessingScope, severity: .warning, subject: "input", message: message,
      evidence: EvidenceValue(encoding: StandardizedEvidence(features: measured, tolerance: tolerance)))
  }
}

// MARK: - Report text

extension PreprocessingScopeCheck {
  public static func title(_ finding: AuditFinding) -> String {
    finding.subject == "input" ? "the data arrive already standardised" : "a transform was fitted on the wrong rows"
  }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    if let evidence = finding.evidence.decode(StandardizedEvidence.self) {
      var table = MarkdownTable([("feature", .left), ("mean over all rows", .right), ("sd over all rows", .right)])
      for feature in evidence.features {
        table.append([feature.name, Format.difference(feature.mean), Format.fixed(feature.sd, 4)])
      }
      return table.markdown
    }
    guard let evidence = finding.evidence.decode(ScopeEvidence.self) else { return "" }
    return AuditWording.bullets([
      "\(evidence.model), fold \(evidence.fold + 1): fitted on \(Format.count(evidence.fittedRows)) rows; its training fold has \(Format.count(evidence.trainingRows))"
    ])
  }
}

extension AuditCheckID {
  /// A transform fitted on rows other than the training fold, or data standardised before splitting.
  public static let preprocessingScope = AuditCheckID(rawValue: "preprocessing-scope")
}
