import BenchbookData
import BenchbookModels
import BenchbookSpec

/// The leak audit's driver: runs every check the spec keeps on, fits what the
/// temporal shadow evaluation and the statistical screens need on the same
/// parallel executor as the main pass, applies the spec's acceptances, and
/// returns the record `results.json` keeps under `audit`.
///
/// Deterministic: every fit lands in its task's slot, so the record is the same
/// whatever the number of jobs.
public enum LeakAudit {
  public struct Options: Sendable {
    public var jobs: Int
    /// Called with (fits done, fits in all) as the audit proceeds.
    public var progress: (@Sendable (Int, Int) -> Void)?

    public init(jobs: Int, progress: (@Sendable (Int, Int) -> Void)? = nil) {
      self.jobs = jobs
      self.progress = progress
    }
  }

  /// What the experiment's own cross-validation already produced, so the audit need not refit it.
  public struct MainPass: Sendable {
    /// Per model (spec order), per fold of the plan.
    public var logLoss: [[Double]]
    /// One per fitted pipeline of the cross-validation.
    public var fitRecords: [PreprocessingFitRecord]
    /// Per model, the nested and flat scores of a tuned model.
    public var tuning: [SelectionBiasCheck.TuningScores?]

    public init(
      logLoss: [[Double]], fitRecords: [PreprocessingFitRecord], tuning: [SelectionBiasCheck.TuningScores?] = []
    ) {
      self.logLoss = logLoss
      self.fitRecords = fitRecords
      self.tuning = tuning
    }
  }

  /// One fit the audit needs.
  private enum Task: Sendable {
    /// The spec's own fold, when no main pass was given (`benchbook audit`).
    case main(model: Int, fold: Int)
    case shadow(model: Int, fold: Int)
    case screenModel(model: Int, fold: Int)
    /// `scorer` indexes `ScreenSample.singleFeatureModels`.
    case screenFeature(feature: Int, fold: Int, scorer: Int)
    case dropColumn(feature: Int, fold: Int)
    /// Inner fold `inner` of outer fold `fold`, every variant of `group` scored on it.
    case variantInner(group: Int, fold: Int, inner: Int)
    /// A check that fits nothing, run in the pool so it overlaps the fits.
    case dataCheck(AuditCheckID)
    case timeProfile
  }

  private enum Output: Sendable {
    case main(logLoss: Double, fittedOn: RowSetFingerprint)
    case logLoss(Double?)
    /// A screen model fitted on an inner fold, kept: the best one serves the drop-column screen.
    case screen(DropColumnScreen.Full?)
    case losses([Double])
    case auc(SuspectLeakCheck.AUCEstimate?)
    case check(CheckResult)
    case profile(TimeProfile?)
  }

  /// Loads the spec's data, makes its folds and runs the audit alone (`benchbook audit`): the spec's own
  /// folds are fitted only when the temporal comparison needs their scores.
  public static func run(_ spec: ExperimentSpec, options: Options) throws -> (AuditRecord, Dataset) {
    let (dataset, plan) = try RunPlan.load(spec)
    // Tuned models are audited at the configuration they ship, as `benchbook run` audits them.
    let resolved = try NestedTuning.resolvingFinal(spec, dataset: dataset, jobs: options.jobs)
    return (try run(resolved, dataset: dataset, plan: plan, mainPass: nil, options: options), dataset)
  }

  /// Runs the audit.
  ///
  /// - Parameter mainPass: the experiment's scores and fit records; `nil` makes the audit fit the spec's
  ///   folds itself, and only when the temporal comparison needs them.
  /// - Throws: `ModelFailure` when a model cannot be fitted on one of the spec's own folds, as `run` would.
  public static func run(
    _ spec: ExperimentSpec, dataset: Dataset, plan: FoldPlan, mainPass: MainPass?, options: Options
  ) throws(ModelFailure) -> AuditRecord {
    let context = AuditContext(spec: spec, dataset: dataset, plan: plan)
    let audit = spec.audit
    let models = spec.models

    let overlaps = audit.runs(.temporalSplit) ? TemporalSplitCheck.overlaps(context) : []
    let shadow: Result<ForwardChainingShadow.Shadow, ForwardChainingShadow.ShadowUnavailable>? =
      overlaps.contains { $0.testRowsBeforeLatestTraining > 0 } ? ForwardChainingShadow.plan(context) : nil
    let shadowPlan = (try? shadow?.get())?.plan
    let needsMain = mainPass == nil && shadowPlan != nil
    let screen = audit.runs(.suspectLeak) ? ScreenSample.make(context) : nil
    let sample = try? screen?.get()

    // Phase 1: everything that does not depend on another fit, costliest first.
    var tasks: [Task] = []
    if needsMain {
      for f in plan.folds.indices { for m in models.indices { tasks.append(.main(model: m, fold: f)) } }
    }
    if let shadowPlan {
      for f in shadowPlan.folds.indices { for m in models.indices { tasks.append(.shadow(model: m, fold: f)) } }
    }
    if let sample {
      for f in sample.folds.indices {
        for m in models.indices { tasks.append(.screenModel(model: m, fold: f)) }
        for j in sample.dataset.features.indices {
          for scorer in ScreenSample.singleFeatureModels.indices {
            tasks.append(.screenFeature(feature: j, fold: f, scorer: scorer))
          }
        }
      }
    }
    for check in [AuditCheckID.timeProxy, .crossFoldDuplicates, .classCoverage] where audit.runs(check) {
      tasks.append(.dataCheck(check))
    }
    tasks.append(.timeProfile)
    // Several variants of one algorithm: choose among them on inner folds of each outer training set.
    let variantGroups = audit.runs(.selectionBias) ? SelectionBiasCheck.variantGroups(spec) : []
    let tune = TuneSpec(inner: spec.resampling.method == .timeSeries ? .timeSeries : .stratifiedKFold)
    let variantFolds: [[Fold]] =
      variantGroups.isEmpty
      ? []
      : plan.folds.map { fold in
        (try? InnerFolds.make(tune, rows: fold.train, dataset: dataset, specPath: spec.path, outerFold: fold.index))
          ?? []
      }
    let variantsRun = !variantGroups.isEmpty && variantFolds.allSatisfy { !$0.isEmpty }
    if variantsRun {
      for g in variantGroups.indices {
        for (f, folds) in variantFolds.enumerated() {
          for i in folds.indices { tasks.append(.variantInner(group: g, fold: f, inner: i)) }
        }
      }
    }
    // At most `dropColumnFeatures` features refitted on each inner fold.
    let dropCount = sample.map { $0.folds.count * min($0.dataset.features.count, ScreenSample.dropColumnFeatures) } ?? 0
    let total = tasks.count + dropCount
    MemoryTrace.mark("leak audit: plans", rows: dataset.x.rows)
    let mainEvaluator = FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing)
    let firstPhase = tasks
    // Forward-chaining splits are fitted as cross-validation's folds are (`FoldScheduler`): kNN splits search one
    // tree stored in time order, where each split's training rows are a run; decision trees filter features
    // sorted once; other models may take their rows in dataset order, gathered a run at a time.
    let scheduler = FoldScheduler(
      models: models, evaluator: mainEvaluator, storedRows: shadowPlan?.rowsInTime,
      folds: { _ in shadowPlan?.folds ?? [] }, reordersRows: true)
    // The spec's own folds, when the audit fits them, as cross-validation fits them: in their order, unshared.
    let mainScheduler = FoldScheduler.unshared(models: models, evaluator: mainEvaluator)
    let order = FoldScheduler.order(
      costs: firstPhase.map { cost($0, scheduler, plan: plan, shadow: shadowPlan) },
      last: firstPhase.map { _ in false }, ties: Array(firstPhase.indices), jobs: options.jobs,
      sharedGroup: { index in
        guard case .shadow(let m, let f) = firstPhase[index] else { return nil }
        return scheduler.sharedGroup(model: m, fold: shadowPlan!.folds[f])
      })
    // Each fit holds what the main pass's would (its training rows times the model's working copies, within
    // five copies of the data), so the audit never holds more at once than cross-validation may.
    let weights = firstPhase.map { task -> Int in
      switch task {
      case .main(let m, let f): mainScheduler.heldRows(model: m, fold: plan.folds[f])
      case .shadow(let m, let f): scheduler.heldRows(model: m, fold: shadowPlan!.folds[f])
      default: 0
      }
    }
    let outputs = try ParallelExecutor.run(
      count: firstPhase.count, jobs: options.jobs, order: order, weights: weights, budget: scheduler.heldRowsBudget,
      progress: options.progress.map { report in { @Sendable done in report(done, total) } }
    ) { (index: Int) throws(ModelFailure) -> Output in
      // As in the main pass: a finished fit's memory goes back to the system, not to the arena.
      defer { HeapPolicy.releaseFreedMemory() }
      switch firstPhase[index] {
      case .main(let m, let f):
        let outcome = try mainScheduler.evaluate(model: m, on: plan.folds[f])
        return .main(logLoss: outcome.scores.logLoss, fittedOn: outcome.preprocessingFittedOn)
      case .shadow(let m, let f):
        return .logLoss(try? scheduler.evaluate(model: m, on: shadowPlan!.folds[f]).scores.logLoss)
      case .screenModel(let m, let f):
        return .screen(
          DropColumnScreen(sample: sample!, model: models[m], preprocessing: spec.preprocessing).fitFull(fold: f))
      case .screenFeature(let j, let f, let scorer):
        return .auc(sample!.singleFeatureAUC(feature: j, fold: f, scorer: scorer))
      case .dataCheck(.timeProxy): return .check(TimeProxyCheck.run(context))
      case .dataCheck(.crossFoldDuplicates): return .check(CrossFoldDuplicatesCheck.run(context))
      case .dataCheck(.classCoverage): return .check(ClassCoverageCheck.run(context))
      case .dataCheck(let check): preconditionFailure("\(check.rawValue) does not run in the pool")
      case .timeProfile: return .profile(TimeProfile.make(context))
      case .variantInner(let g, let f, let i):
        let group = variantGroups[g]
        let split = variantFolds[f][i]
        let scores = try mainEvaluator.evaluate(
          models[group[0]], configurations: group.map { models[$0].classifier }, train: split.train,
          test: split.test, full: false, fold: plan.folds[f].index)
        return .losses(scores.logLoss)
      case .dropColumn:
        preconditionFailure("drop-column runs in the second phase")
      }
    }

    MemoryTrace.mark("leak audit: fits and data checks", rows: dataset.x.rows)
    // Gather phase 1.
    var specLogLoss = mainPass?.logLoss ?? Array(repeating: [], count: models.count)
    var fitRecords = mainPass?.fitRecords ?? []
    var forwardLogLoss = [[Double?]](repeating: [], count: models.count)
    var screenLogLoss = [[Double?]](repeating: [], count: models.count)
    var screenFits = [[DropColumnScreen.Full?]](repeating: [], count: models.count)
    let scorers = ScreenSample.singleFeatureModels.count
    var dataChecks: [AuditCheckID: CheckResult] = [:]
    var timeProfile: TimeProfile?
    var variantLosses: [[[[Double]]]] = variantGroups.map { _ in variantFolds.map { _ in [] } }
    var featureAUC = [[[SuspectLeakCheck.AUCEstimate?]]](
      repeating: [[SuspectLeakCheck.AUCEstimate?]](repeating: [], count: scorers),
      count: sample?.dataset.features.count ?? 0)
    if needsMain {
      specLogLoss = Array(repeating: Array(repeating: 0, count: plan.folds.count), count: models.count)
    }
    for (task, output) in zip(firstPhase, outputs) {
      switch (task, output) {
      case (.main(let m, let f), .main(let logLoss, let fittedOn)):
        specLogLoss[m][f] = logLoss
        fitRecords.append(PreprocessingFitRecord(model: models[m].label, fold: plan.folds[f].index, fittedOn: fittedOn))
      case (.shadow(let m, _), .logLoss(let value)): forwardLogLoss[m].append(value)
      case (.screenModel(let m, _), .screen(let full)):
        screenLogLoss[m].append(full?.logLoss)
        screenFits[m].append(full)
      case (.screenFeature(let j, _, let scorer), .auc(let value)): featureAUC[j][scorer].append(value)
      case (.dataCheck(let check), .check(let result)): dataChecks[check] = result
      case (.timeProfile, .profile(let profile)): timeProfile = profile
      case (.variantInner(let g, let f, _), .losses(let losses)): variantLosses[g][f].append(losses)
      default: preconditionFailure("task and output disagree")
      }
    }
    if mainPass == nil && !needsMain && audit.runs(.preprocessingScope) {
      // `benchbook audit` without a temporal comparison: fit the preprocessing alone on every fold.
      for fold in plan.folds {
        let (pipeline, _) = mainEvaluator.fitPreprocessing(GatheredRows(dataset, rows: fold.train))
        fitRecords.append(PreprocessingFitRecord(model: "preprocessing", fold: fold.index, fittedOn: pipeline.fittedOn))
      }
    }

    MemoryTrace.mark("leak audit: gather", rows: dataset.x.rows)
    // Phase 2: drop-column with the best model on the screened rows.
    var measurements: SuspectLeakCheck.Measurements?
    if let sample {
      let best = SuspectLeakCheck.bestModel(screenLogLoss)
      let nullLogLoss = sample.nullLogLoss()
      var dropLogLoss = [[Double?]](repeating: [], count: sample.dataset.features.count)
      if let best {
        let drops = DropColumnScreen(sample: sample, model: models[best], preprocessing: spec.preprocessing)
        let folds = sample.folds.indices
        let done = firstPhase.count
        // The best model's fits on the inner folds rank the features and warm-start their refits.
        let fitted = screenFits[best]
        let chosen = drops.featuresToRefit(fitted, jobs: options.jobs)
        let dropTasks = chosen.flatMap { j in folds.map { (j, $0) } }
        let refits = ParallelExecutor.run(
          count: dropTasks.count, jobs: options.jobs,
          progress: options.progress.map { report in { @Sendable [done] finished in report(done + finished, total) } }
        ) { (index: Int) -> Double? in
          let (j, f) = dropTasks[index]
          return drops.logLossWithout(feature: j, fold: f, full: fitted[f], nullLogLoss: nullLogLoss[f])
        }
        for ((j, _), value) in zip(dropTasks, refits) { dropLogLoss[j].append(value) }
        options.progress?(total, total)
      } else {
        options.progress?(total, total)
      }
      measurements = SuspectLeakCheck.Measurements(
        sample: sample, modelLogLoss: screenLogLoss, nullLogLoss: nullLogLoss, best: best, dropLogLoss: dropLogLoss,
        featureAUC: featureAUC)
    }

    MemoryTrace.mark("leak audit: drop-column screen", rows: dataset.x.rows)
    // The checks, in contract order.
    var results: [AuditCheckID: CheckResult] = [:]
    var screenRecord: ScreenRecord?
    for check in AuditCheckID.allCases {
      guard audit.runs(check) else {
        results[check] = .skipped("switched off by the spec (`audit: {skip: [\(check.rawValue)]}`)")
        continue
      }
      switch check {
      case .temporalSplit:
        let forward: Result<ForwardChainingShadow.Scores, ForwardChainingShadow.ShadowUnavailable>
        switch shadow {
        case .success(let made)?:
          forward = .success(
            ForwardChainingShadow.Scores(
              logLoss: forwardLogLoss, folds: made.plan.folds.count, blockRows: made.blockRows,
              scoredRows: made.plan.folds.map(\.test.count).max() ?? 0))
        case .failure(let reason)?: forward = .failure(reason)
        case nil: forward = .failure(.init(reason: "not needed"))
        }
        results[check] = TemporalSplitCheck.run(
          context, overlaps: overlaps, specLogLoss: specLogLoss, forward: forward)
      case .postOutcomeFeature:
        results[check] = PostOutcomeFeatureCheck.run(context)
      case .suspectLeak:
        if let measurements {
          let (result, record) = SuspectLeakCheck.run(context, measurements)
          results[check] = result
          screenRecord = record
        } else if case .failure(let unavailable)? = screen {
          results[check] = .skipped(unavailable.reason)
        }
      case .timeProxy, .crossFoldDuplicates, .classCoverage:
        results[check] = dataChecks[check]
      case .preprocessingScope:
        results[check] = PreprocessingScopeCheck.run(context, records: fitRecords)
      case .selectionBias:
        // Left out of the record when nothing is chosen among, so other results read as before.
        guard SelectionBiasCheck.applies(spec) else { continue }
        let tuned = models.indices.map { mainPass?.tuning.indices.contains($0) == true ? mainPass!.tuning[$0] : nil }
        if spec.tunes && mainPass == nil {
          results[check] = .skipped("a tuned model's nested scores come from `benchbook run`")
          continue
        }
        let chosen = variantLosses.map { folds in
          folds.map { inner -> Int in
            let means = NestedTuning.means(inner)
            return NestedTuning.choose(means, allowed: means.map { _ in true }) ?? 0
          }
        }
        results[check] = SelectionBiasCheck.run(
          context, tuned: tuned, variants: variantsRun ? chosen : [],
          mainLogLoss: specLogLoss)
      }
    }

    var findings = AuditCheckID.allCases.flatMap { results[$0]?.findings ?? [] }
    var acceptances = audit.accept.map {
      AcceptanceRecord(check: $0.check, subject: $0.subject, reason: $0.reason, matched: 0)
    }
    for index in findings.indices {
      guard
        let which = audit.accept.firstIndex(where: {
          $0.covers(check: findings[index].check, subject: findings[index].subject)
        })
      else { continue }
      findings[index].accepted = true
      findings[index].acceptedBecause = audit.accept[which].reason
      acceptances[which].matched += 1
    }
    // Worst first; within a severity, contract order of checks (a stable sort keeps each check's own order).
    findings = findings.enumerated().sorted { a, b in
      a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
    }.map(\.element)
    let checks = AuditCheckID.allCases.filter { $0 != .selectionBias || SelectionBiasCheck.applies(spec) }.map {
      check in
      let result = results[check] ?? .skipped("not applicable")
      return AuditCheckRecord(check: check, status: result.ran ? "ran" : "skipped", note: result.note)
    }
    return AuditRecord(
      findings: findings, checks: checks, thresholds: audit.thresholds, accepted: acceptances, screen: screenRecord,
      timeProfile: timeProfile)
  }

  /// A rough cost, so the longest fits start first; it affects scheduling only, never results.
  private static func cost(_ task: Task, _ scheduler: FoldScheduler, plan: FoldPlan, shadow: FoldPlan?) -> Int {
    switch task {
    case .main(let m, let f): scheduler.relativeCost(model: m) * 1_000_000 + plan.folds[f].train.count
    case .shadow(let m, let f): scheduler.relativeCost(model: m) * 1_000_000 + (shadow?.folds[f].train.count ?? 0)
    case .screenModel(let m, _): scheduler.relativeCost(model: m)
    case .screenFeature, .dropColumn, .variantInner: 0
    // Sorting every row: about as long as a mid-sized fit, so started early.
    case .dataCheck, .timeProfile: 2_000_000
    }
  }
}
