import BenchbookData
import BenchbookModels
import BenchbookSpec

/// The leak audit's driver: runs the work of every check the spec keeps on (`AuditCheck`) on the same parallel
/// executor as the main pass, concludes each check in contract order, applies the spec's acceptances, and returns
/// the record `results.json` keeps under `audit`.
///
/// Deterministic: every piece of work lands in its own slot, so the record is the same whatever the number of jobs.
public enum LeakAudit {
  /// The checks, in contract order: the order of the record's `checks`, and of findings within a severity.
  public static let checks: [any AuditCheck.Type] = [
    TemporalSplitCheck.self,
    PostOutcomeFeatureCheck.self,
    SuspectLeakCheck.self,
    TimeProxyCheck.self,
    CrossFoldDuplicatesCheck.self,
    PreprocessingScopeCheck.self,
    ClassCoverageCheck.self,
    SelectionBiasCheck.self,
  ]

  /// The check with this id, if the audit has one.
  public static func check(_ id: AuditCheckID) -> (any AuditCheck.Type)? { checks.first { $0.id == id } }

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
  public typealias MainPass = AuditRunRecord

  /// Fails on a check the spec names (in `audit.skip` or `audit.accept`) that the audit does not have, at the
  /// name's line, with the nearest check's name.
  public static func validate(_ spec: ExperimentSpec) throws(SpecError) {
    let known = checks.map { $0.id.rawValue }
    for reference in spec.audit.references where !checks.contains(where: { $0.id == reference.check }) {
      throw SpecError(
        "unknown audit check '\(reference.text)'\(Suggestion.phrase(for: reference.text, among: known)) (one of "
          + "\(known.joined(separator: ", ")))", at: reference.location, key: reference.key)
    }
  }

  /// Loads the spec's data, makes its folds and runs the audit alone (`benchbook audit`): the spec's own
  /// folds are fitted only when a check needs their scores.
  public static func run(_ spec: ExperimentSpec, options: Options) throws -> (AuditRecord, Dataset) {
    try validate(spec)
    let (dataset, plan) = try RunPlan.load(spec)
    // Tuned models are audited at the configuration they ship, as `benchbook run` audits them.
    let resolved = try NestedTuning.resolvingFinal(spec, dataset: dataset, jobs: options.jobs)
    return (try run(resolved, dataset: dataset, plan: plan, mainPass: nil, options: options), dataset)
  }

  /// Runs the audit.
  ///
  /// - Parameter mainPass: the experiment's scores and fit records; `nil` makes the audit fit the spec's
  ///   folds itself, and only when a check needs them.
  /// - Throws: `ModelFailure` when a model cannot be fitted on one of the spec's own folds, as `run` would.
  public static func run(
    _ spec: ExperimentSpec, dataset: Dataset, plan: FoldPlan, mainPass: MainPass?, options: Options
  ) throws(ModelFailure) -> AuditRecord {
    let context = AuditContext(spec: spec, dataset: dataset, plan: plan)
    // Planning reads the data (the forward-chaining splits sort it by time, the screen draws its sample): the
    // checks plan side by side.
    let planned = checks.filter { spec.audit.runs($0.id) && $0.applies(to: spec) }
    let running = ParallelExecutor.run(count: planned.count, jobs: options.jobs) { (index: Int) -> any AuditCheck in
      planned[index].init(context, run: mainPass)
    }
    let specFolds = mainPass == nil && running.contains { $0.needsSpecFolds }
    MemoryTrace.mark("leak audit: plans", rows: dataset.x.rows)

    // Every check's work, then the spec's own folds when a check needs them and no run gave them, and the time
    // profile the report's plots draw: one pool, costliest first.
    var work = running.map { $0.work() }
    let main = specFolds ? SpecFoldWork(spec: spec, dataset: dataset, plan: plan) : nil
    work.append(main?.work() ?? [])
    work.append([AuditWork(cost: AuditWork.dataPassCost) { () -> any Sendable in TimeProfile.make(context) }])
    let total = work.joined().count + running.map { $0.plannedFollowUp }.reduce(0, +)
    let outputs = try perform(work, on: dataset.x, options: options) { done in options.progress?(done, total) }
    MemoryTrace.mark("leak audit: fits and data checks", rows: dataset.x.rows)

    let scores =
      main?.scores(outputs[running.count])
      ?? AuditScores(
        logLoss: mainPass?.logLoss ?? Array(repeating: [], count: spec.models.count), fitRecords: mainPass?.fitRecords,
        tuning: mainPass?.tuning ?? [], fromRun: mainPass != nil)
    let timeProfile = outputs[running.count + 1].first as? TimeProfile
    MemoryTrace.mark("leak audit: gather", rows: dataset.x.rows)

    // Work that depends on the first round's outputs (drop-column), each check's in turn.
    let firstRound = outputs.joined().count
    var followUps: [[any Sendable]] = []
    for (index, check) in running.enumerated() {
      let done = firstRound + followUps.joined().count
      let planned = check.followUp(outputs[index], jobs: options.jobs)
      followUps.append(
        planned.isEmpty
          ? []
          : try ParallelExecutor.run(
            count: planned.count, jobs: options.jobs,
            progress: options.progress.map { report in { @Sendable finished in report(done + finished, total) } }
          ) { (index: Int) throws(ModelFailure) -> any Sendable in try planned[index].run() })
    }
    if running.contains(where: { $0.plannedFollowUp > 0 }) { options.progress?(total, total) }
    MemoryTrace.mark("leak audit: drop-column screen", rows: dataset.x.rows)

    var results: [AuditCheckID: CheckResult] = [:]
    for (index, check) in running.enumerated() {
      results[type(of: check).id] = check.conclude(
        AuditOutputs(first: outputs[index], followUp: followUps[index]), scores: scores)
    }
    return record(spec, results: results, timeProfile: timeProfile)
  }

  /// Runs every list of work in one pool, costliest first, within the memory budget; the outputs come back list by
  /// list, each in its own order.
  /// - Parameter data: the dataset's matrix: its rows set the budget, its size whether a finished task trims.
  private static func perform(
    _ work: [[AuditWork]], on data: Matrix, options: Options, progress: @escaping @Sendable (Int) -> Void
  ) throws(ModelFailure) -> [[any Sendable]] {
    // Groups of fits sharing work are told apart by list.
    let flat = work.enumerated().flatMap { list, items in items.map { (list: list, work: $0) } }
    let order = FoldScheduler.order(
      costs: flat.map(\.work.cost), last: flat.map { _ in false }, ties: Array(flat.indices), jobs: options.jobs,
      sharedGroup: { index in flat[index].work.sharedGroup.map { flat[index].list << 32 | $0 } })
    let outputs = try ParallelExecutor.run(
      count: flat.count, jobs: options.jobs, order: order, weights: flat.map(\.work.heldRows),
      budget: FoldScheduler.heldRowsBudget(rows: data.rows), progress: progress
    ) { (index: Int) throws(ModelFailure) -> any Sendable in
      // As in the main pass: a finished fit's memory goes back to the system, not to the arena (on data of
      // `HeapPolicy.taskTrimFloor` or more).
      defer { HeapPolicy.releaseFreedMemory(afterTaskOn: data) }
      return try flat[index].work.run()
    }
    var lists = work.map { _ in [any Sendable]() }
    for (item, output) in zip(flat, outputs) { lists[item.list].append(output) }
    return lists
  }

  /// The record: every check in contract order (skipped ones with why), its findings worst first with the spec's
  /// acceptances applied.
  private static func record(_ spec: ExperimentSpec, results: [AuditCheckID: CheckResult], timeProfile: TimeProfile?)
    -> AuditRecord
  {
    let audit = spec.audit
    let listed = checks.filter { $0.applies(to: spec) }.map { $0.id }
    var results = results
    for id in listed where !audit.runs(id) {
      results[id] = .skipped("switched off by the spec (`audit: {skip: [\(id.rawValue)]}`)")
    }
    var findings = listed.flatMap { results[$0]?.findings ?? [] }
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
    let records = listed.map { id in
      let result = results[id] ?? .skipped("not applicable")
      return AuditCheckRecord(check: id, status: result.ran ? "ran" : "skipped", note: result.note)
    }
    return AuditRecord(
      findings: findings, checks: records, thresholds: audit.thresholds, accepted: acceptances,
      screen: listed.lazy.compactMap { results[$0]?.screen }.first, timeProfile: timeProfile)
  }
}
