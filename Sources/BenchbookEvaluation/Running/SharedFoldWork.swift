import BenchbookData
import BenchbookModels
import BenchbookSpec

/// The trees a run's kNN models share across their folds (`SharedNeighborTree`), and which fold searches one:
/// what cross-validation and the audit's forward-chaining splits both ask before fitting a kNN fold.
struct SharedNeighborTrees: Sendable {
  private let trees: [Int: SharedNeighborTree]
  private let rowCount: Int

  /// - Parameters:
  ///   - folds: model index → the folds this run will fit for it.
  ///   - storedRows: dataset rows in the order the folds' training rows keep (`nil`: dataset order).
  init(models: [ModelSpec], evaluator: FoldEvaluator, storedRows: [Int32]?, folds: (Int) -> [Fold]) {
    let rowCount = evaluator.dataset.x.rows
    var trees: [Int: SharedNeighborTree] = [:]
    for (m, model) in models.enumerated() {
      // A tree is worth building once at least two folds search it.
      let served = folds(m).count { Self.serves($0, rowCount: rowCount) }
      guard served >= 2, let neighbors = model.classifier as? KNearestNeighbors,
        evaluator.sharesNeighborTree(model)
      else { continue }
      trees[m] = SharedNeighborTree(leafSize: neighbors.leafSize, folds: served, storedRows: storedRows)
    }
    self.trees = trees
    self.rowCount = rowCount
  }

  /// No tree for any model: every fold fits its own.
  static let unshared = SharedNeighborTrees()

  private init() {
    trees = [:]
    rowCount = 0
  }

  /// The tree fold `fold` of model `m` searches, or `nil` when it fits its own.
  func tree(model m: Int, fold: Fold) -> SharedNeighborTree? {
    guard let tree = trees[m], Self.serves(fold, rowCount: rowCount) else { return nil }
    return tree
  }

  /// Whether a fold should search a shared tree: only when it trains on at least a third of the rows. A
  /// search passes over the rows a fold may not use, and below a third it would pass over more than two of
  /// them for each it may, costing more than building the fold's own smaller tree.
  private static func serves(_ fold: Fold, rowCount: Int) -> Bool { 3 * fold.train.count >= rowCount }
}
