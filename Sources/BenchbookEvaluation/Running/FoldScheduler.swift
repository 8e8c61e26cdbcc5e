import BenchbookData
import BenchbookModels
import BenchbookSpec

/// How every fold fit of a pass runs, decided in one place for cross-validation (`RunPlan`) and the audit's
/// refits (`LeakAudit`) alike: which shared work a fit uses (a kd-tree over every row for a model whose descriptor
/// says `sharedNeighborTree`, features sorted once for `sharedPresort`, also by a tuned model's splits, rows read
/// in place for `inPlace`), the
/// order its rows come in, the rows it holds (the memory budget's weight), its cost, and the order to start fits.
///
/// Every strategy gives the scores a fit on the fold's gathered rows gives, bit for bit (tests compare them), so
/// the decisions change time and memory only.
struct FoldScheduler: Sendable {
  let models: [ModelSpec]
  let evaluator: FoldEvaluator
  /// Whether a fit may take its training rows in ascending order when its model's fit does not depend on their
  /// order: rows scattered in time order are gathered a run at a time instead of a row at a time. The audit's
  /// refits may; cross-validation keeps its plan's order, in which its results were computed.
  let reordersRows: Bool
  private let trees: [Int: SharedNeighborTree]
  private let presorts: [Int: FoldShared<FeaturePresort?>]
  /// Models whose fit on all rows uses their shared sorted features.
  private let presortsAllRows: Set<Int>
  private let rowCount: Int

  /// - Parameters:
  ///   - storedRows: dataset rows in the order the folds' training rows keep for a model whose fit depends on
  ///     row order (`nil`: dataset order); a shared kd-tree numbers its points so.
  ///   - folds: model index → the folds this pass will fit for it (none: no shared work).
  ///   - fitsAllRows: model index → whether this pass also fits it on all rows, which then grows a decision tree
  ///     from the same sorted features (a kNN model's fit on all rows is kept for the on-device measurements, and
  ///     a shared tree held that long would sit beside every later fold).
  ///   - reordersRows: see `reordersRows`.
  ///   - tuningTrain: model index → the training rows of each split this pass scores for the tuned model on its
  ///     own; a decision tree's splits then share sorted features as folds do.
  init(
    models: [ModelSpec], evaluator: FoldEvaluator, storedRows: [Int32]?, folds: (Int) -> [Fold],
    fitsAllRows: (Int) -> Bool = { _ in false }, reordersRows: Bool, tuningTrain: (Int) -> [RowIndices] = { _ in [] }
  ) {
    let rowCount = evaluator.dataset.x.rows
    var trees: [Int: SharedNeighborTree] = [:]
    var presorts: [Int: FoldShared<FeaturePresort?>] = [:]
    var presortsAllRows: Set<Int> = []
    for (m, model) in models.enumerated() {
      // Shared work pays once at least two fits use it (folds, and a tree's fit on all rows; a tuned model's splits).
      let served = folds(m).count { Self.serves($0.train, rowCount: rowCount) }
      if model.search != nil {
        let splits = tuningTrain(m).count { Self.serves($0, rowCount: rowCount) }
        if evaluator.tunedPresortFitting(model) && splits >= 2 { presorts[m] = FoldShared(folds: splits) }
      } else if let neighbors = evaluator.neighborSearcher(model) {
        guard served >= 2 else { continue }
        trees[m] = SharedNeighborTree(leafSize: neighbors.leafSize, folds: served, storedRows: storedRows)
      } else if evaluator.presortFitter(model) != nil {
        let allRows = fitsAllRows(m)
        let users = served + (allRows ? 1 : 0)
        guard users >= 2 else { continue }
        presorts[m] = FoldShared(folds: users)
        if allRows { presortsAllRows.insert(m) }
      }
    }
    self.models = models
    self.evaluator = evaluator
    self.reordersRows = reordersRows
    self.trees = trees
    self.presorts = presorts
    self.presortsAllRows = presortsAllRows
    self.rowCount = rowCount
  }

  /// Nothing shared: every fold fits its own rows (in place or gathered, as its model's strategy says).
  static func unshared(models: [ModelSpec], evaluator: FoldEvaluator) -> FoldScheduler {
    FoldScheduler(models: models, evaluator: evaluator, storedRows: nil, folds: { _ in [] }, reordersRows: false)
  }

  // MARK: - Running a fit

  /// Fits model `m` on `fold`'s training rows and scores it on its test rows, with the work this pass shares.
  func evaluate(model m: Int, on fold: Fold) throws(ModelFailure) -> FoldEvaluator.Outcome {
    if let shared = tree(model: m, fold: fold) {
      return try evaluator.evaluate(models[m], on: fold, sharing: shared)
    }
    if let shared = presort(model: m, fold: fold) {
      return try evaluator.evaluate(models[m], on: fold, presorted: shared)
    }
    var fold = fold
    // The rows before a forward-chaining split's test block, in time order, are scattered over a file that is
    // not in time order; in dataset order they are runs, gathered a run at a time instead of a row at a time.
    if reordersRows && !models[m].descriptor.traits.fitDependsOnRowOrder {
      fold.train = fold.train.ascending(rowCount: rowCount)
    }
    return try evaluator.evaluate(models[m], on: fold)
  }

  /// Fits model `m` on every row, growing a decision tree from the folds' shared sorted features when it may.
  func fitAllRows(model m: Int) throws(ModelFailure) -> FittedPipeline {
    if let shared = presortForAllRows(model: m) { return try evaluator.fitAllRows(models[m], presorted: shared) }
    return try evaluator.fitAllRows(models[m])
  }

  // MARK: - Scheduling

  /// What the fits running at once may hold together: five copies of the data's rows. Scheduling only.
  var heldRowsBudget: Int { Self.heldRowsBudget(rows: rowCount) }

  /// What the fits running at once over `rows` data rows may hold together: five copies of them.
  static func heldRowsBudget(rows: Int) -> Int { 5 * rows }

  /// Rows a fit of model `m` on `fold` holds at its largest, for the budget: a fold searching a shared tree holds
  /// only its test rows' positions and neighbours (the tree is the model's, not the fold's); any other its
  /// model's working copies of its training rows, less the gathered one when it reads them in place.
  func heldRows(model m: Int, fold: Fold) -> Int {
    if tree(model: m, fold: fold) != nil { return fold.test.count }
    return evaluator.heldRows(models[m], training: fold.train.count)
  }

  /// Rows model `m`'s fit on all rows holds at its largest: all rows are handed over without a gathered copy, and
  /// a model that rewrites its rows copies them then.
  func heldRowsAllRows(model m: Int) -> Int {
    let traits = models[m].descriptor.traits
    return rowCount * (traits.workingCopies - (traits.rewritesItsRows ? 0 : 1))
  }

  /// Model `m`'s rough cost, so the longest fits start first (its descriptor's relative cost).
  func relativeCost(model m: Int) -> Int { models[m].descriptor.traits.relativeCost }

  /// The group of fits sharing work that a fit of model `m` on `fold` belongs to (the model), or `nil`.
  func sharedGroup(model m: Int, fold: Fold) -> Int? {
    tree(model: m, fold: fold) != nil || presort(model: m, fold: fold) != nil ? m : nil
  }

  /// The group of fits sharing work that a tuned model `m`'s split training on `training` belongs to, or `nil`.
  func sharedGroup(model m: Int, training: RowIndices) -> Int? {
    presort(model: m, training: training) == nil ? nil : m
  }

  /// The group of fits sharing work that model `m`'s fit on all rows belongs to, or `nil`.
  func sharedGroupAllRows(model m: Int) -> Int? { presortForAllRows(model: m) == nil ? nil : m }

  /// Whether model `m`'s fit on all rows should start after every fold: its model is kept for the on-device
  /// measurements, so started first it would be held beside every later fold's working copies. A tree grown from
  /// its folds' sorted features runs with its folds instead, so the sorted features are freed after it.
  func fitsAllRowsLast(model m: Int) -> Bool { presortForAllRows(model: m) == nil }

  /// The order to start tasks in: costliest first (ties in task order), tasks marked `last` after the others;
  /// and while a group's first fit builds its shared work, the other threads take tasks that share nothing.
  /// - Parameters:
  ///   - costs: per task, its rough cost.
  ///   - last: per task, whether it waits for the others (it may not move earlier).
  ///   - ties: per task, what orders tasks of equal cost (ascending).
  ///   - sharedGroup: per task, the group of fits sharing work it belongs to.
  static func order(costs: [Int], last: [Bool], ties: [Int], jobs: Int, sharedGroup: (Int) -> Int?) -> [Int] {
    let costliestFirst = costs.indices.sorted { a, b in
      last[a] != last[b] ? !last[a] : costs[a] != costs[b] ? costs[a] > costs[b] : ties[a] < ties[b]
    }
    return ParallelExecutor.staggered(costliestFirst, jobs: jobs, sharedGroup: sharedGroup, movable: { !last[$0] })
  }

  // MARK: - Shared work

  /// The tree fold `fold` of model `m` searches, or `nil` when it does not search a shared one.
  func tree(model m: Int, fold: Fold) -> SharedNeighborTree? {
    guard let tree = trees[m], Self.serves(fold.train, rowCount: rowCount) else { return nil }
    return tree
  }

  /// The sorted features fold `fold` of model `m` filters, or `nil` when it does not use shared ones.
  func presort(model m: Int, fold: Fold) -> FoldShared<FeaturePresort?>? { presort(model: m, training: fold.train) }

  /// The sorted features a fit of model `m` (a fold, or a tuned model's split) on `training` filters, or `nil`
  /// when it does not use shared ones.
  func presort(model m: Int, training: RowIndices) -> FoldShared<FeaturePresort?>? {
    guard let presort = presorts[m], Self.serves(training, rowCount: rowCount) else { return nil }
    return presort
  }

  /// The sorted features model `m`'s fit on all rows grows its tree from, or `nil` when it sorts its own.
  func presortForAllRows(model m: Int) -> FoldShared<FeaturePresort?>? {
    presortsAllRows.contains(m) ? presorts[m] : nil
  }

  /// Whether a fold should use shared work: only when it trains on at least a third of the rows. Both a
  /// search of a shared tree and a filter of shared sorted lists pass over the rows a fold may not use, and
  /// below a third they would pass over more than two of them for each it may, costing more than the fold's
  /// own smaller work.
  private static func serves(_ training: RowIndices, rowCount: Int) -> Bool { 3 * training.count >= rowCount }
}
