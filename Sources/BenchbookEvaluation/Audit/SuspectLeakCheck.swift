import BenchbookData
import BenchbookSpec

/// `suspect-leak`: statistical screens for leaks no metadata declares, run on
/// a sample of training rows only (`ScreenSample`), never on test rows.
///
/// - drop-column: removing a feature raises the best model's log-loss by at
///   least `drop_column` × the null model's log-loss (warning);
/// - single-feature AUC: the feature alone (the better of a logistic
///   regression and a shallow tree on it) reaches a cross-validated ROC AUC of
///   `auc_info` (info), or its one-sided 97.5% lower bound reaches
///   `auc_warning` (warning); with more than two classes, the AUC of the class
///   it separates worst from the rest. The bound (`AUCEstimate.lowerBound`)
///   asks for evidence, not a point estimate, so a textbook dataset's best
///   feature on a few dozen test rows (iris's petal length) does not warn;
/// - too good to be true: the best model's pseudo-R² = 1 − LL / LL_null is at
///   least `pseudo_r2` (info).
///
/// Strong honest features exist, so these screens only warn: only metadata
/// (`post-outcome-feature`) makes an error.
public struct SuspectLeakCheck: AuditCheck {
  public static let id = AuditCheckID.suspectLeak
  public static let question =
    "Is a feature, on a sample of training rows, so predictive that it probably gives the answer away?"

  let context: AuditContext
  /// The screened rows, or why the screens cannot run.
  let screen: Result<ScreenSample, ScreenSample.ScreenUnavailable>
  /// Per inner fold of the sample, the log-loss of predicting its training rows' class shares.
  let nullLogLoss: [Double]

  public init(_ context: AuditContext, run: LeakAudit.MainPass?) {
    self.context = context
    screen = ScreenSample.make(context)
    nullLogLoss = (try? screen.get())?.nullLogLoss() ?? []
  }

  var sample: ScreenSample? { try? screen.get() }

  /// On each inner fold of the sample: every spec model (kept, for drop-column), and every feature alone with
  /// each single-feature scorer.
  public func work() -> [AuditWork] {
    guard let sample else { return [] }
    let (models, preprocessing) = (context.spec.models, context.spec.preprocessing)
    // The stand-in for the dedicated screener keeps its fits whatever they clip (`followUp` uses them).
    let standIn = standInForScreener
    var work: [AuditWork] = []
    for f in sample.folds.indices {
      for m in models.indices {
        work.append(
          AuditWork(cost: models[m].descriptor.traits.relativeCost) { () -> any Sendable in
            let full = DropColumnScreen(
              sample: sample, model: ScreenSample.screening(models[m]), preprocessing: preprocessing
            ).fitFull(fold: f)
            return m == standIn ? full : full?.settingAside()
          })
      }
      for j in sample.dataset.features.indices {
        for scorer in ScreenSample.singleFeatureModels.indices {
          work.append(
            AuditWork(cost: 0) { () -> any Sendable in sample.singleFeatureAUC(feature: j, fold: f, scorer: scorer) })
        }
      }
    }
    return work
  }

  /// At most `dropColumnFeatures` features refitted on each inner fold, and the dedicated screener's fits.
  public var plannedFollowUp: Int {
    sample.map { $0.folds.count * min($0.dataset.features.count, ScreenSample.dropColumnFeatures) + 1 } ?? 0
  }

  /// The spec models' fits on the inner folds, and every feature's AUCs, from the first round's outputs.
  func screens(_ outputs: [any Sendable]) -> (fits: [[DropColumnScreen.Full?]], auc: [[[AUCEstimate?]]]) {
    guard let sample else { return ([], []) }
    let models = context.spec.models.count
    let scorers = ScreenSample.singleFeatureModels.count
    let features = sample.dataset.features.count
    var fits = [[DropColumnScreen.Full?]](repeating: [], count: models)
    var auc = [[[AUCEstimate?]]](
      repeating: [[AUCEstimate?]](repeating: [], count: scorers), count: features)
    var position = 0
    for _ in sample.folds.indices {
      for m in 0..<models {
        fits[m].append(outputs[position] as! DropColumnScreen.Full?)
        position += 1
      }
      for j in 0..<features {
        for scorer in 0..<scorers {
          auc[j][scorer].append(outputs[position] as! AUCEstimate?)
          position += 1
        }
      }
    }
    return (fits, auc)
  }

  /// The spec model drop-column refits: the best (lowest mean inner log-loss) among those fitted on every inner
  /// fold with no clipped row (`DropColumnScreen.Full.clippedRows`); `nil` when none qualifies, and the dedicated
  /// screening model screens.
  static func screener(_ fits: [[DropColumnScreen.Full?]]) -> Int? {
    bestModel(
      fits.map { folds in folds.allSatisfy { ($0?.clippedRows ?? 1) == 0 } ? folds.map { $0?.logLoss } : [] })
  }

  /// The spec models that are the dedicated screening model under another name (logistic regression at its
  /// defaults, on standardised features, as diamonds' spec has it): the same algorithm and settings once screened
  /// (`ScreenSample.screening`) and the same preprocessing, so their first-round fits on the inner folds are the
  /// screener's own, bit for bit, and need not be fitted twice.
  static func modelsActingAsScreener(_ spec: ExperimentSpec) -> [Int] {
    let (screener, preprocessing) = ScreenSample.screeningModel
    guard spec.preprocessing == preprocessing else { return [] }
    return spec.models.indices.filter { m in
      let screened = ScreenSample.screening(spec.models[m]).classifier
      return type(of: screened) == type(of: screener.classifier)
        && screened.parameters == screener.classifier.parameters
    }
  }

  /// The spec model whose first-round fits drop-column takes in the dedicated screener's place, when no spec model
  /// can screen: the first acting as the screener.
  var standInForScreener: Int? { Self.modelsActingAsScreener(context.spec).first }

  /// The dedicated screening model's fits, when it screened: its log-loss per inner fold.
  struct ScreenerFits: Sendable {
    var logLoss: [Double?]
  }

  /// Drop-column with the screening model on the screened rows: its fits on the inner folds rank the features and
  /// warm-start their refits.
  public func followUp(_ outputs: [any Sendable], jobs: Int) -> [AuditWork] {
    guard let sample else { return [] }
    let fitted = screens(outputs).fits
    let nullLogLoss = nullLogLoss
    let drops: DropColumnScreen
    let full: [DropColumnScreen.Full?]
    var work: [AuditWork] = []
    if let best = Self.screener(fitted) {
      drops = DropColumnScreen(
        sample: sample, model: ScreenSample.screening(context.spec.models[best]),
        preprocessing: context.spec.preprocessing)
      full = fitted[best]
    } else {
      let (model, preprocessing) = ScreenSample.screeningModel
      drops = DropColumnScreen(sample: sample, model: model, preprocessing: preprocessing)
      if let same = standInForScreener {
        full = fitted[same]
      } else {
        full = ParallelExecutor.run(count: sample.folds.count, jobs: jobs) { (f: Int) -> DropColumnScreen.Full? in
          drops.fitFull(fold: f)
        }
      }
      let fits = ScreenerFits(logLoss: full.map { $0?.logLoss })
      work.append(AuditWork(cost: 0) { () -> any Sendable in fits })
      guard full.allSatisfy({ $0 != nil }) else { return work }
    }
    let neutralised = drops.neutralisedShares(
      full, nullLogLoss: nullLogLoss, refitBar: Self.refitFraction * context.thresholds.dropColumnShare, jobs: jobs)
    if let neutralised {
      work.append(AuditWork(cost: 0) { () -> any Sendable in NeutralisedShares(values: neutralised) })
    }
    let chosen = drops.featuresToRefit(neutralised: neutralised, threshold: context.thresholds.dropColumnShare)
    return work
      + chosen.flatMap { j in
        sample.folds.indices.map { f in
          AuditWork(cost: 0) { () -> any Sendable in
            DropResult(
              feature: j,
              logLoss: drops.logLossWithout(feature: j, fold: f, full: full[f], nullLogLoss: nullLogLoss[f]))
          }
        }
      }
  }

  /// Per feature, what neutralising it costs the screening model, as a share of the null log-loss
  /// (`DropColumnScreen.neutralisedShares`).
  struct NeutralisedShares: Sendable {
    var values: [Double]
  }

  /// One drop-column refit: the feature left out, and the model's log-loss without it.
  struct DropResult: Sendable {
    var feature: Int
    var logLoss: Double?
  }

  public func conclude(_ outputs: AuditOutputs, scores: AuditScores) -> CheckResult {
    guard let sample else {
      if case .failure(let unavailable) = screen { return .skipped(unavailable.reason) }
      return .skipped("not applicable")
    }
    let (fits, featureAUC) = screens(outputs.first)
    let modelLogLoss = fits.map { $0.map { $0?.logLoss } }
    var dropLogLoss = [[Double?]](repeating: [], count: sample.dataset.features.count)
    for case let drop as DropResult in outputs.followUp { dropLogLoss[drop.feature].append(drop.logLoss) }
    let dedicated = outputs.followUp.lazy.compactMap { $0 as? ScreenerFits }.first
    let neutralised = outputs.followUp.lazy.compactMap { $0 as? NeutralisedShares }.first
    let best = Self.screener(fits)
    let setAside = fits.indices.filter { m in
      !fits[m].isEmpty && fits[m].allSatisfy { $0 != nil } && fits[m].contains { ($0?.clippedRows ?? 0) > 0 }
    }.map { context.spec.models[$0].label }
    var measurements = Measurements(
      sample: sample, modelLogLoss: modelLogLoss, nullLogLoss: nullLogLoss, best: best,
      dropLogLoss: dropLogLoss, featureAUC: featureAUC)
    measurements.screenerLogLoss = best == nil ? dedicated?.logLoss : nil
    measurements.setAside = setAside
    measurements.neutralisedShare = neutralised?.values
    var (result, record) = Self.run(context, measurements)
    result.screen = record
    return result
  }

  /// What the driver measured on the sample.
  public struct Measurements: Sendable {
    public var sample: ScreenSample
    /// Per spec model, per inner fold; `nil` where the model could not be fitted.
    public var modelLogLoss: [[Double?]]
    public var nullLogLoss: [Double]
    /// Index (spec order) of the model drop-column used.
    public var best: Int?
    /// Per feature, per inner fold: the best model's log-loss without the feature.
    public var dropLogLoss: [[Double?]]
    /// Per feature, per single-feature model, per inner fold: ROC AUC (`nil` where undefined).
    public var featureAUC: [[[AUCEstimate?]]]
    /// The dedicated screening model's log-loss per inner fold, when it screened (`best` is then `nil`).
    public var screenerLogLoss: [Double?]?
    /// Spec models fitted on every inner fold that drop-column set aside because some row's probability was 0.
    public var setAside: [String] = []
    /// Per feature, what neutralising it costs the screening model, as a share of the null log-loss; only features
    /// reaching half the warning threshold are refitted (`DropColumnScreen.neutralisedShares`).
    public var neutralisedShare: [Double]?

    public init(
      sample: ScreenSample, modelLogLoss: [[Double?]], nullLogLoss: [Double], best: Int?, dropLogLoss: [[Double?]],
      featureAUC: [[[AUCEstimate?]]]
    ) {
      self.sample = sample
      self.modelLogLoss = modelLogLoss
      self.nullLogLoss = nullLogLoss
      self.best = best
      self.dropLogLoss = dropLogLoss
      self.featureAUC = featureAUC
    }
  }

  /// One fold's ROC AUC and the class sizes behind it.
  public struct AUCEstimate: Sendable, Hashable {
    public var auc: Double
    public var positives: Int
    public var negatives: Int

    /// The single-feature model's log-loss on the fold, when measured.
    public var logLoss: Double?

    public init(auc: Double, positives: Int, negatives: Int, logLoss: Double? = nil) {
      self.auc = auc
      self.positives = positives
      self.negatives = negatives
      self.logLoss = logLoss
    }

    /// Hanley & McNeil's (1982) standard error, with the AUC held below 1 by half a pair so a
    /// perfect fold of few rows still carries the uncertainty of its size.
    public var standardError: Double {
      let n1 = Double(max(1, positives))
      let n2 = Double(max(1, negatives))
      let a = min(auc, 1 - 0.5 / (n1 * n2))
      let q1 = a / (2 - a)
      let q2 = 2 * a * a / (1 + a)
      let variance = (a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n2 - 1) * (q2 - a * a)) / (n1 * n2)
      return max(0, variance).squareRoot()
    }

    /// The mean AUC over folds, its standard error and its one-sided 97.5% lower bound.
    ///
    /// The bound is t-based over the folds, mean − t(0.975, k − 1) · SE, with SE the larger of two
    /// estimates of the mean's error: the spread between folds, s/√k, and Hanley & McNeil's
    /// within-fold error, √(Σ SEᵢ²)/k. The first sees how much the AUC moves from fold to fold;
    /// the second keeps folds that agree by chance (five perfect folds of 30 rows) from
    /// claiming a certainty their size cannot give. A single fold has no spread: its bound uses
    /// the within-fold error with one degree of freedom.
    public static func mean(_ folds: [AUCEstimate]) -> Summary? {
      guard !folds.isEmpty else { return nil }
      let k = Double(folds.count)
      let auc = folds.reduce(0) { $0 + $1.auc } / k
      let within = folds.reduce(0) { $0 + $1.standardError * $1.standardError }.squareRoot() / k
      let between =
        folds.count < 2
        ? 0 : (folds.reduce(0) { $0 + ($1.auc - auc) * ($1.auc - auc) } / (k - 1) / k).squareRoot()
      let standardError = max(within, between)
      let t = StudentT(degreesOfFreedom: Double(max(1, folds.count - 1))).quantile(0.975)
      return Summary(auc: auc, standardError: standardError, lowerBound: auc - t * standardError)
    }

    /// A feature's AUC over the inner folds.
    public struct Summary: Sendable, Hashable {
      public var auc: Double
      public var standardError: Double
      /// One-sided 97.5% lower bound on the AUC; the warning needs it at or above `auc_warning`.
      public var lowerBound: Double
    }
  }

  public struct Evidence: Codable, Sendable, Hashable {
    /// The screens that fired: `drop-column`, `single-feature-auc`, `pseudo-r2`.
    public var screens: [String]
    public var model: String?
    public var logLoss: Double?
    public var logLossWithout: Double?
    public var nullLogLoss: Double
    public var dropColumnShare: Double?
    public var singleFeatureAUC: Double?
    public var singleFeatureAUCStandardError: Double?
    public var singleFeatureAUCLowerBound: Double?
    public var pseudoR2: Double?
    public var rows: Int
    public var sourceFold: Int
    public var folds: Int
    /// The training rows of fold `sourceFold` that `rows` were drawn from (a seeded sample when there are more
    /// than `audit.screen_rows`).
    public var sampledFrom: Int?
    /// What the feature alone is worth: 1 − its single-feature model's log-loss / the null model's.
    public var singleFeatureShare: Double?
    /// Which stronger evidence made it a warning: `nearly-sufficient-alone`, `near-copy-of-label`,
    /// `unexplained-drop-column`.
    public var warningEvidence: [String]?
    /// The drop-column share a feature of its single-feature AUC explains (`BinormalShare`), when drop-column fired.
    public var aucExplainedShare: Double?

    /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
    enum CodingKeys: String, CodingKey {
      case screens, model, rows, folds, logLoss, logLossWithout, nullLogLoss, dropColumnShare, pseudoR2, sourceFold
      case sampledFrom
      case singleFeatureShare, warningEvidence, aucExplainedShare
      case singleFeatureAUC = "singleFeatureAuc"  // single_feature_auc
      case singleFeatureAUCStandardError = "singleFeatureAucSe"  // single_feature_auc_se
      case singleFeatureAUCLowerBound = "singleFeatureAucLower"  // single_feature_auc_lower
    }
  }

  /// Drop-column refits only the features whose neutralisation (held at the training mean or at its prediction from
  /// the other features, no fit) costs at least this share of the warning threshold: a refit can do better than the
  /// neutralised model, since it may lean on other features instead, but rarely by half (`DropColumnScreen`).
  public static let refitFraction = 0.5

  /// Warning evidence: the feature's AUC lower bound reaches `auc_warning`.
  static let nearlySufficient = "nearly-sufficient-alone"
  /// Warning evidence: the screening model leans on it (drop-column share at or above `drop_column`) and alone it
  /// removes at least `nearCopyShare` of the null model's log-loss, so no other feature stands in for it. A strong
  /// honest feature (iris's petal length) has others that stand in.
  static let nearCopy = "near-copy-of-label"
  static let nearCopyShare = 0.6
  /// Warning evidence: removing it costs at least `largeDropFactor` × `drop_column` of the null log-loss, and more
  /// than a feature of its single-feature AUC is worth (`BinormalShare`): an honest strong feature costs what its
  /// separation explains (titanic's `sex`, Chile's `statusquo` cost 25–30%, and are notes).
  static let unexplainedDrop = "unexplained-drop-column"
  static let largeDropFactor = 1.6
  static let evidenceWords = [
    nearlySufficient: "it is nearly sufficient alone (AUC lower bound at or above `auc_warning`)",
    nearCopy:
      "the screening model leans on it and alone it removes at least \(Int(nearCopyShare * 100))% of the null "
      + "model's log-loss: a near-copy of the label",
    unexplainedDrop:
      "removing it costs a large share of the null log-loss that its single-feature AUC does not explain",
  ]

  /// The smallest class's share of the screened rows: the prior the AUC's binormal share is read at (for more than
  /// two classes, the class the worst one-vs-rest AUC is about is not recorded; the smallest errs towards a smaller
  /// explained share, so towards warning).
  static func minorityShare(_ labels: [Int], classes: Int) -> Double {
    var counts = [Int](repeating: 0, count: max(1, classes))
    for y in labels where counts.indices.contains(y) { counts[y] += 1 }
    let present = counts.filter { $0 > 0 }
    return Double(present.min() ?? 0) / Double(max(1, labels.count))
  }

  /// The model with the lowest mean inner log-loss among those fitted on every inner fold; ties keep spec order.
  public static func bestModel(_ modelLogLoss: [[Double?]]) -> Int? {
    var best: (index: Int, value: Double)?
    for (index, folds) in modelLogLoss.enumerated() where !folds.isEmpty && folds.allSatisfy({ $0 != nil }) {
      let value = mean(folds.map { $0! })
      if value.isFinite, best == nil || value < best!.value { best = (index, value) }
    }
    return best?.index
  }

  public static func run(_ context: AuditContext, _ measured: Measurements) -> (CheckResult, ScreenRecord) {
    let thresholds = context.thresholds
    let sample = measured.sample
    let features = sample.dataset.features
    let nullLogLoss = mean(measured.nullLogLoss)
    let dedicated = measured.best == nil ? measured.screenerLogLoss : nil
    let label =
      measured.best.map { context.spec.models[$0].label }
      ?? dedicated.map { _ in
        ScreenSample.screeningModel.model.label
      }
    let screenerLogLoss = measured.best.map { measured.modelLogLoss[$0] } ?? dedicated
    let full = screenerLogLoss.flatMap { folds in
      !folds.isEmpty && folds.allSatisfy { $0 != nil } ? mean(folds.map { $0! }) : nil
    }
    let pseudoR2 = full.map { 1 - $0 / nullLogLoss }
    var record = ScreenRecord(
      rows: sample.rows.count, sourceFold: sample.sourceFold, folds: sample.folds.count, model: label, logLoss: full,
      nullLogLoss: nullLogLoss, pseudoR2: pseudoR2, features: [])
    record.sampledFrom = sample.sampledFrom
    var findings: [AuditFinding] = []
    func evidence(_ screens: [String]) -> Evidence {
      Evidence(
        screens: screens, model: label, logLoss: full, logLossWithout: nil, nullLogLoss: nullLogLoss,
        dropColumnShare: nil, singleFeatureAUC: nil, singleFeatureAUCStandardError: nil,
        singleFeatureAUCLowerBound: nil, pseudoR2: nil,
        rows: sample.rows.count,
        sourceFold: sample.sourceFold, folds: sample.folds.count, sampledFrom: sample.sampledFrom)
    }

    for (index, feature) in features.enumerated() {
      let drops = measured.dropLogLoss.indices.contains(index) ? measured.dropLogLoss[index] : []
      let without = drops.isEmpty || drops.contains(where: { $0 == nil }) ? nil : mean(drops.map { $0! })
      let share = without.flatMap { w in full.map { (w - $0) / nullLogLoss } }
      // The better single-feature model's mean AUC over the folds where it is defined.
      let perModel = measured.featureAUC.indices.contains(index) ? measured.featureAUC[index] : []
      let estimate = perModel.compactMap { folds in AUCEstimate.mean(folds.compactMap { $0 }) }
        .max { $0.auc < $1.auc }
      let auc = estimate?.auc
      record.features.append(
        .init(
          name: feature.name, logLossWithout: without, dropColumnShare: share.flatMap { $0.isFinite ? $0 : nil },
          singleFeatureAUC: auc, singleFeatureAUCStandardError: estimate?.standardError,
          singleFeatureAUCLowerBound: estimate?.lowerBound,
          neutralisedShare: measured.neutralisedShare.flatMap {
            $0.indices.contains(index) && $0[index].isFinite ? $0[index] : nil
          }))

      // What the feature alone is worth: the better single-feature model's mean log-loss, as a share of the null's.
      let aloneLogLoss = perModel.compactMap { folds -> Double? in
        let losses = folds.compactMap { $0?.logLoss }
        return losses.isEmpty || losses.count < folds.count ? nil : mean(losses)
      }.min()
      let aloneShare = aloneLogLoss.map { (nullLogLoss - $0) / nullLogLoss }

      var screens: [String] = []
      var reasons: [String] = []
      var fired: [String] = []
      var explainedShare: Double?
      var strong = false
      if let share, share.isFinite, share >= thresholds.dropColumnShare, let without, let full, let label {
        screens.append("drop-column")
        strong = true
        reasons.append(
          "removing it raises \(label)'s log-loss from \(AuditWording.fixed(full)) to \(AuditWording.fixed(without)), "
            + "\(AuditWording.percent(share)) of what knowing nothing costs (\(AuditWording.fixed(nullLogLoss)))")
        let explained = estimate.map {
          BinormalShare.share(
            auc: $0.auc, prior: Self.minorityShare(sample.dataset.labels, classes: sample.dataset.classes.count))
        }
        explainedShare = explained
        if share >= Self.largeDropFactor * thresholds.dropColumnShare, share > explained ?? 0 {
          fired.append(Self.unexplainedDrop)
        }
        if let aloneShare, aloneShare >= Self.nearCopyShare { fired.append(Self.nearCopy) }
      }
      if let estimate, estimate.auc >= thresholds.singleFeatureAUCInfo {
        screens.append("single-feature-auc")
        strong = true
        reasons.append(
          "on its own it separates the classes with a cross-validated ROC AUC of \(AuditWording.fixed(estimate.auc, 3)) "
            + "(97.5% lower bound \(AuditWording.fixed(estimate.lowerBound, 3)))")
        if estimate.lowerBound >= thresholds.singleFeatureAUCWarning { fired.append(Self.nearlySufficient) }
      }
      let severity: AuditSeverity? = !fired.isEmpty ? .warning : strong ? .info : nil
      guard let severity else { continue }
      var details = evidence(screens)
      details.logLossWithout = without
      details.dropColumnShare = share.flatMap { $0.isFinite ? $0 : nil }
      details.singleFeatureAUC = auc
      details.singleFeatureAUCStandardError = estimate?.standardError
      details.singleFeatureAUCLowerBound = estimate?.lowerBound
      details.singleFeatureShare = aloneShare
      details.aucExplainedShare = explainedShare
      details.warningEvidence = severity == .warning ? fired : nil
      let because = fired.map { Self.evidenceWords[$0] ?? $0 }
      let advice =
        severity == .warning
        ? "It warns because \(AuditWording.list(because)). "
          + "Honest features are rarely this decisive: make sure `\(feature.name)` is known when the prediction is made, "
          + "and if it is not, declare it (`known: after-prediction`) or remove it."
        : "Strong honest features exist (in medical data, say); if `\(feature.name)` is known when the prediction is "
          + "made, this is only a note: it is not nearly sufficient alone, not a near-copy of the label, and what "
          + "removing it costs is what it is worth alone."
      let message =
        "`\(feature.name)` is suspiciously predictive: \(AuditWording.list(reasons)), on \(sample.sampleWords). \(advice)"
      findings.append(
        AuditFinding(
          check: .suspectLeak, severity: severity, subject: feature.name, message: message,
          evidence: EvidenceValue(encoding: details)))
    }

    if let pseudoR2, pseudoR2 >= thresholds.pseudoR2, let label, let full {
      var details = evidence(["pseudo-r2"])
      details.pseudoR2 = pseudoR2
      let message =
        "\(label) is nearly too good to be true on the screened training rows: log-loss \(AuditWording.fixed(full)) "
        + "against \(AuditWording.fixed(nullLogLoss)) for knowing nothing (pseudo-R² \(AuditWording.fixed(pseudoR2, 2))). "
        + "Easy problems exist (iris, say); on a hard one, look for a feature that gives the answer away."
      findings.append(
        AuditFinding(
          check: .suspectLeak, severity: .info, subject: label, message: message,
          evidence: EvidenceValue(encoding: details)))
    }
    let refitted = measured.dropLogLoss.filter { !$0.isEmpty }.count
    let note =
      "\(features.count) feature\(features.count == 1 ? "" : "s") screened on \(sample.sampleWords), "
      + "\(sample.folds.count)-fold inner cross-validation"
      + (label.map { ", drop-column with \($0)" } ?? "")
      + (refitted < features.count && label != nil ? ", " + refitWords(refitted, thresholds: thresholds) : "")
    return (CheckResult(findings: findings, note: note), record)
  }

  /// Which features drop-column refitted, for the check's note: those whose neutralisation reached half the threshold.
  static func refitWords(_ refitted: Int, thresholds: AuditThresholds) -> String {
    let bar = "\(AuditWording.percent(refitFraction * thresholds.dropColumnShare)) of the null log-loss"
    guard refitted > 0 else { return "no refit: neutralising no feature costs \(bar)" }
    return "refitted without the \(refitted) feature\(refitted == 1 ? "" : "s") whose neutralisation costs at least "
      + bar + (refitted == ScreenSample.dropColumnFeatures ? " (the most costly, the budget)" : "")
  }

  static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }
}

// MARK: - Report text

extension SuspectLeakCheck {
  public static func title(_ finding: AuditFinding) -> String {
    let screens = finding.evidence.decode(Evidence.self)?.screens ?? []
    return screens == ["pseudo-r2"]
      ? "\(finding.subject)'s scores look too good to be true" : "`\(finding.subject)` is suspiciously predictive"
  }

  public static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    guard let evidence = finding.evidence.decode(Evidence.self) else { return "" }
    var lines: [String] = []
    if let share = evidence.dropColumnShare, let with = evidence.logLoss, let without = evidence.logLossWithout,
      let model = evidence.model
    {
      lines.append(
        "drop-column: \(model)'s log-loss \(Format.fixed(with, 4)) with it, \(Format.fixed(without, 4)) without; "
          + "the difference is \(Format.percent(share)) of the null model's \(Format.fixed(evidence.nullLogLoss, 4))")
    }
    if let auc = evidence.singleFeatureAUC { lines.append("ROC AUC of the feature alone: \(Format.fixed(auc, 3))") }
    if let pseudo = evidence.pseudoR2 {
      lines.append("pseudo-R² = 1 − log-loss / null log-loss = \(Format.fixed(pseudo, 3))")
    }
    let screened = ScreenSample.sampleWords(
      rows: evidence.rows, sampledFrom: evidence.sampledFrom, sourceFold: evidence.sourceFold)
    lines.append("measured on \(screened), \(evidence.folds)-fold cross-validation within them")
    return AuditWording.bullets(lines)
  }
}

extension AuditCheckID {
  /// A feature too predictive to be believed, found by statistical screens.
  public static let suspectLeak = AuditCheckID(rawValue: "suspect-leak")
}
