import BenchbookData
import BenchbookModels

extension RunPlan {
  /// The peak memory estimated for running the tasks at `indices` on `jobs` threads, and the leak audit when
  /// `audits` (a whole run, or a merge), from the sizes this plan knows (see `PeakMemoryEstimate`).
  public func memoryEstimate(_ indices: [Int], jobs: Int, audits: Bool) -> PeakMemoryEstimate {
    PeakMemoryEstimate(memoryInputs(indices, jobs: jobs, audits: audits))
  }

  /// The estimate's inputs: what each task's working copies hold, by the same decisions `execute` takes.
  func memoryInputs(_ indices: [Int], jobs: Int, audits: Bool) -> PeakMemoryEstimate.Inputs {
    let rows = dataset.x.rows
    let rowBytes = 8 * dataset.x.columns
    let scheduler = self.scheduler(running: indices)

    var taskBytes: [Int] = []
    var tuningTaskBytes: [Int] = []
    var sharing: Set<Int> = []
    for index in indices {
      switch tasks[index] {
      case .fold(let m, let f):
        taskBytes.append(scheduler.heldRows(model: m, fold: plan.folds[f]) * rowBytes)
        if scheduler.sharedGroup(model: m, fold: plan.folds[f]) != nil { sharing.insert(m) }
      case .allRows(let m):
        taskBytes.append(scheduler.heldRowsAllRows(model: m) * rowBytes)
      case .tuning(let m, let split):
        // Every configuration a split scores is fitted on its rows, each with its model's working copies.
        let scored = tunings[m]!.scoring(split)
        let traits = spec.models[m].descriptor.traits
        tuningTaskBytes.append(traits.workingCopies * scored.train.count * rowBytes * scored.configurationCount)
        if traits.sharedWork.contains(.neighborSearchAcrossSplits)
          || scheduler.sharedGroup(model: m, training: scored.train) != nil
        {
          sharing.insert(m)
        }
      }
    }
    // Shared work: sorted features (a decision tree's, tuned or not) hold one row number per value; a kd-tree
    // (a kNN model's) its points and their row numbers.
    let sharedBytes = sharing.reduce(0) { total, m in
      total + (evaluator.sharesPresort(spec.models[m]) ? rows * dataset.x.columns * 4 : rows * (rowBytes + 8))
    }
    // The audit refits every model on every outer fold, as the models will ship.
    let auditTaskBytes =
      audits
      ? spec.models.flatMap { model in
        plan.folds.map { model.descriptor.traits.workingCopies * $0.train.count * rowBytes }
      } : []

    var storedIndices = plan.folds.reduce(0) { $0 + $1.train.storedIndexCount + $1.test.storedIndexCount }
    // Every tuned model holds the run's one set of inner folds (`TuningFolds`).
    if let tuning = tunings.values.first {
      for fold in tuning.innerFolds.joined() + tuning.finalInner {
        storedIndices += fold.train.storedIndexCount + fold.test.storedIndexCount
      }
    }
    // Side arrays: the label and the group (Ints), the time and each availability column (a Double).
    let sideRowBytes =
      8 + (dataset.groups == nil ? 0 : 8) + (dataset.time == nil ? 0 : 8) + (dataset.predictAt == nil ? 0 : 8)
      + 8 * dataset.availableAt.count
    // Columns read: every feature, the target, the time and the groups; text values take an offset and their bytes.
    let readBytes =
      dataset.features.reduce(0) { $0 + ($1.type == .numeric ? 8 : 16) } + 8 + (dataset.time == nil ? 0 : 16)
      + (dataset.groups == nil ? 0 : 16)
    return PeakMemoryEstimate.Inputs(
      rowsRead: dataset.provenance.rowsRead, rows: rows, bytesPerRowRead: readBytes, encodedRowBytes: rowBytes,
      sideRowBytes: sideRowBytes, storedFoldIndices: storedIndices, jobs: jobs, taskBytes: taskBytes,
      tuningTaskBytes: tuningTaskBytes,
      sharedBytes: sharedBytes, audits: audits, auditTaskBytes: auditTaskBytes)
  }
}
