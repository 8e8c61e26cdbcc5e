import BenchbookData
import BenchbookModels
import BenchbookSpec

/// `selection-bias`: the best of several configurations, scored on the folds
/// it was picked on, looks better than it will do (Cawley & Talbot, 2010).
///
/// The optimism is the best flat score's advantage over the nested score
/// (choose on inner folds, score on the outer test rows), per outer fold; its
/// standard error is over outer folds. A warning when the optimism exceeds
/// max(0.01 nats, 2 standard errors), else information.
///
/// Two sources: a tuned model (its nested and flat scores come from the run),
/// and several variants of one algorithm listed as separate models, the manual
/// way to tune (the audit chooses among them on inner folds of each outer
/// training set, as tuning would).
public struct SelectionBiasCheck: AuditCheck {
  public static let id = AuditCheckID.selectionBias
  public static let question =
    "Is a winner among configurations (tuning, or variants of one algorithm) scored on the folds it was picked on?"

  let context: AuditContext
  /// Models of one algorithm listed several times with fixed settings.
  let variantGroups: [[Int]]
  /// Per outer fold, the inner folds the variants are chosen on; empty when some outer fold cannot be split.
  let variantFolds: [[Fold]]

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) {
    self.context = context
    let spec = context.spec
    variantGroups = Self.variantGroups(spec)
    let tune = TuneSpec(inner: ResamplingRegistry.defaultInner(forOuter: spec.resampling))
    let folds: [[Fold]] =
      variantGroups.isEmpty
      ? []
      : context.plan.folds.map { fold in
        (try? InnerFolds.make(
          tune, rows: fold.train, dataset: context.dataset, specPath: spec.path, outerFold: fold.index)) ?? []
      }
    variantFolds = folds.allSatisfy { !$0.isEmpty } ? folds : []
  }

  /// Whether the spec picks among configurations at all; the check is left out of the record otherwise.
  public static func applies(to spec: ExperimentSpec) -> Bool { applies(spec) }

  /// The variants' own scores are the spec's folds'.
  public var needsSpecFolds: Bool { !variantFolds.isEmpty }

  /// Every variant of a group scored on each inner fold of each outer training set.
  public func work() -> [AuditWork] {
    let evaluator = FoldEvaluator(dataset: context.dataset, preprocessing: context.spec.preprocessing)
    let (models, plan) = (context.spec.models, context.plan)
    return variantGroups.flatMap { group in
      variantFolds.enumerated().flatMap { f, folds in
        folds.map { split in
          AuditWork(cost: 0) { () throws(ModelFailure) -> any Sendable in
            try evaluator.evaluate(
              models[group[0]], configurations: group.map { models[$0].classifier }, train: split.train,
              test: split.test, full: false, fold: plan.folds[f].index
            ).logLoss
          }
        }
      }
    }
  }

  public func conclude(_ outputs: AuditOutputs, scores: AuditScores) -> CheckResult {
    let models = context.spec.models
    let tuned = models.indices.map { scores.tuning.indices.contains($0) ? scores.tuning[$0] : nil }
    if context.spec.tunes && !scores.fromRun {
      return .skipped("a tuned model's nested scores come from `benchbook run`")
    }
    // Per group, per outer fold, per inner fold: each variant's log-loss; the inner folds choose.
    var losses = variantGroups.map { _ in variantFolds.map { _ in [[Double]]() } }
    var position = 0
    for g in variantGroups.indices {
      for (f, folds) in variantFolds.enumerated() {
        for _ in folds {
          losses[g][f].append(outputs.first[position] as! [Double])
          position += 1
        }
      }
    }
    let chosen = losses.map { folds in
      folds.map { inner -> Int in
        let means = NestedTuning.means(inner)
        return NestedTuning.choose(means, allowed: means.map { _ in true }) ?? 0
      }
    }
    return Self.run(context, tuned: tuned, variants: variantFolds.isEmpty ? [] : chosen, mainLogLoss: scores.logLoss)
  }

  /// Below this many nats of optimism, no warning however small the noise.
  public static let minimumOptimism = 0.01

  public struct Evidence: Codable, Sendable, Hashable {
    /// `tuning` or `variants`.
    public var source: String
    /// The tuned model, or the variants' labels.
    public var models: [String]
    public var configurations: Int
    public var nestedLogLoss: Double
    public var bestFlatLogLoss: Double
    /// The best flat configuration (tuning) or variant.
    public var bestFlat: String
    public var optimism: Double
    public var standardError: Double
    /// Per outer fold, the configuration or variant the inner folds chose.
    public var chosen: [String]
  }

  /// Models of one algorithm listed several times with fixed settings: groups of model indices.
  public static func variantGroups(_ spec: ExperimentSpec) -> [[Int]] {
    ModelRegistry.all.compactMap { algorithm in
      let members = spec.models.indices.filter {
        spec.models[$0].descriptor == algorithm && !spec.models[$0].isTuned
      }
      return members.count >= 2 ? members : nil
    }
  }

  /// Whether the spec picks among configurations at all.
  public static func applies(_ spec: ExperimentSpec) -> Bool {
    spec.tunes || !variantGroups(spec).isEmpty
  }

  /// - Parameters:
  ///   - tuned: per model (spec order), the nested fold scores and each configuration's flat fold scores,
  ///     for tuned models; `nil` otherwise or when the run did not record them.
  ///   - variants: per variant group, per outer fold, the index (into the group) the inner folds chose.
  ///   - mainLogLoss: per model, per outer fold, the run's own scores.
  public static func run(
    _ context: AuditContext, tuned: [TuningScores?], variants: [[Int]], mainLogLoss: [[Double]]
  ) -> CheckResult {
    let models = context.spec.models
    var findings: [AuditFinding] = []
    for (m, scores) in tuned.enumerated() {
      guard let scores else { continue }
      let means = scores.flat.map { mean($0) }
      let best = means.indices.min { means[$0] < means[$1] }!
      findings.append(
        finding(
          source: "tuning", models: [models[m].label], configurations: scores.flat.count, nested: scores.nested,
          bestFlat: scores.flat[best], bestName: scores.names[best], chosen: scores.chosen.map { scores.names[$0] }))
    }
    for (group, chosen) in zip(variantGroups(context.spec), variants) {
      let flat = group.map { mainLogLoss[$0] }
      let means = flat.map { mean($0) }
      let best = means.indices.min { means[$0] < means[$1] }!
      let nested = chosen.enumerated().map { f, v in flat[v][f] }
      let labels = group.map { models[$0].label }
      findings.append(
        finding(
          source: "variants", models: labels, configurations: group.count, nested: nested, bestFlat: flat[best],
          bestName: labels[best], chosen: chosen.map { labels[$0] }))
    }
    return CheckResult(
      findings: findings,
      note: "\(findings.count) choice\(findings.count == 1 ? "" : "s") among configurations, nested against flat scores"
    )
  }

  /// What a tuned model's run recorded, for the check.
  public struct TuningScores: Sendable {
    public var nested: [Double]
    /// Per configuration, per outer fold.
    public var flat: [[Double]]
    /// Per outer fold, the chosen configuration.
    public var chosen: [Int]
    /// A short name per configuration (its searched settings).
    public var names: [String]

    public init(nested: [Double], flat: [[Double]], chosen: [Int], names: [String]) {
      self.nested = nested
      self.flat = flat
      self.chosen = chosen
      self.names = names
    }
  }

  static func finding(
    source: String, models: [String], configurations: Int, nested: [Double], bestFlat: [Double], bestName: String,
    chosen: [String]
  ) -> AuditFinding {
    let differences = zip(nested, bestFlat).map { $0 - $1 }
    let optimism = mean(differences)
    let standardError = standardErrorOfMean(differences)
    let warns = optimism > max(minimumOptimism, 2 * standardError)
    let subject = models.count == 1 ? models[0] : models.joined(separator: ", ")
    let what =
      source == "tuning"
      ? "The best of \(configurations) configurations of \(subject) (\(bestName))"
      : "The best of the \(configurations) variants \(subject) (\(bestName))"
    var message =
      "\(what) scores \(nats(mean(bestFlat))) on the folds it was picked on; chosen on inner folds "
      + "instead, the choice scores \(nats(mean(nested))): an optimism of \(nats(optimism)) "
      + "± \(nats(standardError)) (standard error over outer folds). "
    if warns {
      message +=
        source == "tuning"
        ? "Quote the nested score, not the best flat one."
        : "The winner among them is flattered; tune them as one model with a search space to score the choice honestly."
    } else {
      message += withinThresholdWording(optimism: optimism, standardError: standardError, folds: differences.count)
    }
    return AuditFinding(
      check: .selectionBias, severity: warns ? .warning : .info, subject: subject, message: message,
      evidence: EvidenceValue(
        encoding: Evidence(
          source: source, models: models, configurations: configurations, nestedLogLoss: mean(nested),
          bestFlatLogLoss: mean(bestFlat), bestFlat: bestName, optimism: optimism, standardError: standardError,
          chosen: chosen)))
  }

  static func nats(_ value: Double) -> String { "\(AuditWording.fixed(value)) nats" }

  /// Whether an optimism within the warning threshold is also below the practical one (`minimumOptimism`): only then
  /// does the choice cost nothing measurable; above it, the figure is merely within its noise.
  static func negligible(_ optimism: Double) -> Bool { optimism < minimumOptimism }

  /// The sentence for an optimism within max(0.01 nats, 2 standard errors): "costs nothing measurable" only when
  /// the optimism itself is below 0.01 nats; otherwise it cannot be told from noise, which is not the same as zero.
  static func withinThresholdWording(optimism: Double, standardError: Double, folds: Int) -> String {
    if negligible(optimism) {
      return "That is below \(nats(minimumOptimism)), the practical threshold: the choice costs nothing measurable."
    }
    return "That cannot be told from noise over \(folds) outer fold\(folds == 1 ? "" : "s"): "
      + "\(nats(optimism)) is within 2 standard errors (\(nats(2 * standardError))), yet above the practical "
      + "threshold of \(nats(minimumOptimism)), so the choice may still cost that much; quote the nested score."
  }

  static func mean(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
  }

  /// Sample standard deviation over √n; 0 for fewer than two values.
  static func standardErrorOfMean(_ values: [Double]) -> Double {
    guard values.count >= 2 else { return 0 }
    let m = mean(values)
    let variance = values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)
    return (variance / Double(values.count)).squareRoot()
  }
}

// MARK: - Report text

extension SelectionBiasCheck {
  public static func title(_ finding: AuditFinding) -> String {
    guard finding.severity == .info else {
      return "the best of `\(finding.subject)`'s configurations is flattered by its choice"
    }
    if let evidence = finding.evidence.decode(Evidence.self), !negligible(evidence.optimism) {
      return "the optimism of choosing among `\(finding.subject)`'s configurations cannot be told from noise"
    }
    return "choosing among `\(finding.subject)`'s configurations costs nothing measurable"
  }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    guard let evidence = finding.evidence.decode(Evidence.self) else { return "" }
    let choices = Dictionary(grouping: evidence.chosen, by: { $0 }).mapValues(\.count)
    let common = choices.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(3)
    return AuditWording.bullets([
      "best flat score: \(evidence.bestFlat), \(Format.fixed(evidence.bestFlatLogLoss, 4)) nats",
      "nested score: \(Format.fixed(evidence.nestedLogLoss, 4)) nats over \(evidence.chosen.count) outer folds",
      "optimism: \(Format.fixed(evidence.optimism, 4)) ± \(Format.fixed(evidence.standardError, 4)) nats",
      "chosen most often: "
        + common.map { "\($0.key) (\($0.value) fold\($0.value == 1 ? "" : "s"))" }.joined(separator: "; "),
    ])
  }
}

extension AuditCheckID {
  /// A winner picked on the same folds it is scored on: tuning, or several variants of one algorithm.
  public static let selectionBias = AuditCheckID(rawValue: "selection-bias")
}
