import BenchbookData
import BenchbookModels
import BenchbookSpec
import Foundation

/// Everything a run will compute, as a list of independent tasks: every (model, fold) of a fixed model and its
/// fit on all rows, every split of a tuned model. `run` executes them all; a shard executes some, and `merge`
/// the rest, and both hand the outputs to the same assembly.
public struct RunPlan: Sendable {
  /// One unit of work.
  public enum Task: Sendable, Hashable, Codable {
    case fold(model: Int, fold: Int)
    case allRows(model: Int)
    case tuning(model: Int, split: TuningSplit)

    public var model: Int {
      switch self {
      case .fold(let model, _), .allRows(let model), .tuning(let model, _): model
      }
    }

    /// The (model, outer fold) cell a task belongs to, or `nil` for the work on all rows, which the merge step does.
    public var cell: Cell? {
      switch self {
      case .fold(let model, let fold): Cell(model: model, fold: fold)
      case .tuning(let model, .outer(let fold)), .tuning(let model, .inner(outer: let fold?, inner: _)):
        Cell(model: model, fold: fold)
      case .allRows, .tuning(_, .inner(outer: nil, inner: _)): nil
      }
    }
  }

  /// A model on one outer fold: what shards divide. Tuning a model on a fold is one cell.
  public struct Cell: Sendable, Hashable, Codable, Comparable {
    public var model: Int
    public var fold: Int

    public static func < (a: Cell, b: Cell) -> Bool { (a.fold, a.model) < (b.fold, b.model) }
  }

  /// What a task produced.
  public enum Output: Sendable {
    case fold(FoldEvaluator.Outcome)
    case allRows(FittedPipeline)
    case tuning(ConfigurationScores)
  }

  public let spec: ExperimentSpec
  public let dataset: Dataset
  public let plan: FoldPlan
  public let evaluator: FoldEvaluator
  let tunings: [Int: NestedTuning]
  public let tasks: [Task]

  /// Loads the data, makes the folds and lists the tasks.
  /// - Parameter jobs: threads for making the tuned models' inner folds; they do not depend on it.
  public init(_ spec: ExperimentSpec, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
    let (dataset, plan) = try Self.load(spec)
    var tunings: [Int: NestedTuning] = [:]
    let innerFolds =
      spec.models.contains { $0.search != nil }
      ? try TuningFolds(spec.tune, plan: plan, dataset: dataset, specPath: spec.path, jobs: jobs) : nil
    for (m, model) in spec.models.enumerated() {
      if let search = model.search, let innerFolds {
        tunings[m] = NestedTuning(model, search: search, tune: spec.tune, plan: plan, folds: innerFolds)
      }
    }
    var tasks: [Task] = []
    for f in 0...plan.folds.count {
      for m in spec.models.indices where tunings[m] == nil {
        tasks.append(f == plan.folds.count ? .allRows(model: m) : .fold(model: m, fold: f))
      }
    }
    for m in spec.models.indices {
      if let tuning = tunings[m] { tasks += tuning.splits.map { .tuning(model: m, split: $0) } }
    }
    self.spec = spec
    self.dataset = dataset
    self.plan = plan
    self.tunings = tunings
    self.tasks = tasks
    evaluator = FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing)
  }

  /// Loads the data a spec names and makes its folds: what every pass over a spec starts from (`run`, `audit`,
  /// a shard, a merge), done once per run.
  public static func load(_ spec: ExperimentSpec) throws -> (Dataset, FoldPlan) {
    let dataset = try Dataset.load(spec.dataset)
    MemoryTrace.mark("load", rows: dataset.x.rows)
    let plan = try spec.resampling.plan(
      rowCount: dataset.x.rows, labels: dataset.labels, time: dataset.time, groups: dataset.groups,
      specPath: spec.path)
    return (dataset, plan)
  }

  /// A rough cost of a task, for scheduling and for balancing shards; it never changes a result.
  public func cost(_ task: Task) -> Int {
    spec.models[task.model].descriptor.traits.relativeCost * (tunings[task.model]?.configurations.count ?? 1)
  }

  /// How the fits of the tasks at `indices` run, sharing work among them (`FoldScheduler`): `execute` runs them so,
  /// and `memoryEstimate` counts what that holds.
  func scheduler(running indices: [Int]) -> FoldScheduler {
    FoldScheduler(
      models: spec.models, evaluator: evaluator, storedRows: plan.rowsInTime,
      folds: { m in
        indices.compactMap { index -> Fold? in
          guard case .fold(m, let f) = tasks[index] else { return nil }
          return plan.folds[f]
        }
      },
      fitsAllRows: { m in indices.contains { tasks[$0] == .allRows(model: m) } }, reordersRows: false,
      tuningTrain: { m in
        indices.compactMap { index -> RowIndices? in
          guard case .tuning(m, let split) = tasks[index] else { return nil }
          return tunings[m]!.scoring(split).train
        }
      })
  }

  /// Runs the tasks at `indices` (into `tasks`) on `jobs` threads, costliest first. Tasks whose held rows
  /// together pass five copies of the data do not run at once (on two cores any two folds may; on more,
  /// the heaviest fits are not all in flight together).
  /// - Parameter sharing: whether a tuned model's splits, or an untuned kNN or tree model's folds, may share work
  ///   across splits; the outputs are the same either way, timings aside (tests compare them).
  /// - Returns: outputs keyed by task index.
  public func execute(
    _ indices: [Int], jobs: Int, sharing: Bool = true, progress: (@Sendable (Int, Int) -> Void)?
  ) throws(ModelFailure) -> [Int: Output] {
    // A size budget is judged on each outer fold's own fit: the file that fold's model would ship as.
    let (spec, dataset, taskList, tunings, evaluator, plan) = (spec, dataset, tasks, tunings, evaluator, plan)
    let sizeOf: (@Sendable (ModelSpec, FittedPipeline) -> Int?)? =
      spec.budget?.modelSizeBytes == nil
      ? nil
      : { @Sendable model, pipeline in
        OnDeviceCost.budgetSizeBytes(spec, dataset: dataset, model: model, pipeline: pipeline)
      }
    let count = indices.count
    // A tuned model whose splits can share work scores them in one pass, on every thread, before the rest.
    var outputs: [Int: Output] = [:]
    for (m, tuning) in tunings.sorted(by: { $0.key < $1.key }) where sharing {
      let mine = indices.filter { tasks[$0].model == m }
      let splits = mine.compactMap { index -> TuningSplit? in
        guard case .tuning(_, let split) = tasks[index] else { return nil }
        return split
      }
      let model = spec.models[m]
      var size: (@Sendable (Int, FittedPipeline) -> Int?)?
      if let sizeOf { size = { @Sendable _, pipeline in sizeOf(model, pipeline) } }
      guard !splits.isEmpty, let scores = try tuning.evaluateTogether(splits, with: evaluator, size: size, jobs: jobs)
      else { continue }
      for (index, score) in zip(mine, scores) { outputs[index] = .tuning(score) }
      progress?(outputs.count, count)
    }
    let remaining = indices.filter { outputs[$0] == nil }
    // How each fold fit runs (shared work, held rows, order): the decision the audit's refits take too.
    let scheduler =
      sharing ? self.scheduler(running: remaining) : FoldScheduler.unshared(models: spec.models, evaluator: evaluator)
    let order = FoldScheduler.order(
      costs: remaining.map { cost(tasks[$0]) },
      last: remaining.map { index in
        guard case .allRows(let m) = tasks[index] else { return false }
        return scheduler.fitsAllRowsLast(model: m)
      },
      ties: remaining, jobs: jobs,
      sharedGroup: { position in
        switch tasks[remaining[position]] {
        case .fold(let m, let f): scheduler.sharedGroup(model: m, fold: plan.folds[f])
        case .allRows(let m): scheduler.sharedGroupAllRows(model: m)
        case .tuning(let m, let split): scheduler.sharedGroup(model: m, training: tunings[m]!.scoring(split).train)
        }
      })
    let alreadyDone = outputs.count
    let held = remaining.map { index in
      switch tasks[index] {
      case .fold(let m, let f): scheduler.heldRows(model: m, fold: plan.folds[f])
      case .allRows(let m): scheduler.heldRowsAllRows(model: m)
      case .tuning: 0
      }
    }
    let rest = try ParallelExecutor.run(
      count: remaining.count, jobs: jobs, order: order, weights: held, budget: scheduler.heldRowsBudget,
      progress: progress.map { report in { @Sendable done in report(alreadyDone + done, count) } }
    ) { (position: Int) throws(ModelFailure) -> Output in
      // Hand a finished task's freed memory back at once (on data of `HeapPolicy.taskTrimFloor` or more): below
      // the mmap threshold glibc would keep it resident in the thread's arena, under the next task's allocations.
      defer { HeapPolicy.releaseFreedMemory(afterTaskOn: dataset.x) }
      switch taskList[remaining[position]] {
      case .fold(let m, let f): return .fold(try scheduler.evaluate(model: m, on: plan.folds[f]))
      case .allRows(let m): return .allRows(try scheduler.fitAllRows(model: m))
      case .tuning(let m, let split):
        let model = spec.models[m]
        let presorted = scheduler.presort(model: m, training: tunings[m]!.scoring(split).train)
        return .tuning(
          try tunings[m]!.evaluate(
            split, with: evaluator, size: sizeOf.map { size in { size(model, $1) } }, presorted: presorted))
      }
    }
    for (index, output) in zip(remaining, rest) { outputs[index] = output }
    return outputs
  }
}
