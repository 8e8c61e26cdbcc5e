import BenchbookData
import BenchbookModels
import BenchbookSpec

/// The work a run's untuned models share across their folds, and which fold uses it: a kd-tree over every row
/// for a kNN model (`SharedNeighborTree`), the features sorted once for a decision tree (`FeaturePresort`).
/// What cross-validation and the audit's forward-chaining splits both ask before fitting a fold.
struct SharedFoldWork: Sendable {
  private let trees: [Int: SharedNeighborTree]
  private let presorts: [Int: FoldShared<FeaturePresort?>]
  /// Models whose fit on all rows uses their shared sorted features.
  private let presortsAllRows: Set<Int>
  private let rowCount: Int

  /// - Parameters:
  ///   - storedRows: dataset rows in the order the folds' training rows keep for a kNN model (`nil`: dataset
  ///     order).
  ///   - folds: model index → the folds this run will fit for it.
  ///   - fitsAllRows: model index → whether this run also fits it on all rows, which then grows a decision tree
  ///     from the same sorted features (a kNN model's fit on all rows is kept for the on-device measurements, and
  ///     a shared tree held that long would sit beside every later fold).
  init(
    models: [ModelSpec], evaluator: FoldEvaluator, storedRows: [Int32]?, folds: (Int) -> [Fold],
    fitsAllRows: (Int) -> Bool = { _ in false }
  ) {
    let rowCount = evaluator.dataset.x.rows
    var trees: [Int: SharedNeighborTree] = [:]
    var presorts: [Int: FoldShared<FeaturePresort?>] = [:]
    var presortsAllRows: Set<Int> = []
    for (m, model) in models.enumerated() {
      // Shared work pays once at least two fits use it (folds, and a tree's fit on all rows).
      let served = folds(m).count { Self.serves($0, rowCount: rowCount) }
      if let neighbors = model.classifier as? KNearestNeighbors, evaluator.sharesNeighborTree(model) {
        guard served >= 2 else { continue }
        trees[m] = SharedNeighborTree(leafSize: neighbors.leafSize, folds: served, storedRows: storedRows)
      } else if evaluator.sharesPresort(model) {
        let allRows = fitsAllRows(m)
        let users = served + (allRows ? 1 : 0)
        guard users >= 2 else { continue }
        presorts[m] = FoldShared(folds: users)
        if allRows { presortsAllRows.insert(m) }
      }
    }
    self.trees = trees
    self.presorts = presorts
    self.presortsAllRows = presortsAllRows
    self.rowCount = rowCount
  }

  /// Nothing shared: every fold fits its own.
  static let unshared = SharedFoldWork()

  private init() {
    trees = [:]
    presorts = [:]
    presortsAllRows = []
    rowCount = 0
  }

  /// The tree fold `fold` of model `m` searches, or `nil` when it does not search a shared one.
  func tree(model m: Int, fold: Fold) -> SharedNeighborTree? {
    guard let tree = trees[m], Self.serves(fold, rowCount: rowCount) else { return nil }
    return tree
  }

  /// The sorted features fold `fold` of model `m` filters, or `nil` when it does not use shared ones.
  func presort(model m: Int, fold: Fold) -> FoldShared<FeaturePresort?>? {
    guard let presort = presorts[m], Self.serves(fold, rowCount: rowCount) else { return nil }
    return presort
  }

  /// The sorted features model `m`'s fit on all rows grows its tree from, or `nil` when it sorts its own.
  func presortForAllRows(model m: Int) -> FoldShared<FeaturePresort?>? {
    presortsAllRows.contains(m) ? presorts[m] : nil
  }

  /// Whether fold `fold` of model `m` uses shared work of either kind.
  func shares(model m: Int, fold: Fold) -> Bool {
    tree(model: m, fold: fold) != nil || presort(model: m, fold: fold) != nil
  }

  /// Whether a fold should use shared work: only when it trains on at least a third of the rows. Both a
  /// search of a shared tree and a filter of shared sorted lists pass over the rows a fold may not use, and
  /// below a third they would pass over more than two of them for each it may, costing more than the fold's
  /// own smaller work.
  private static func serves(_ fold: Fold, rowCount: Int) -> Bool { 3 * fold.train.count >= rowCount }
}
