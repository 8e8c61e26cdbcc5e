import BenchbookData
import BenchbookModels

/// One kd-tree over every row, searched by many folds of an untuned k-nearest-neighbours model in place of a
/// tree built per fold (ten builds of nine tenths of the rows become one of all of them).
///
/// The tree numbers its points in a stored order: dataset order for cross-validation, time order for the
/// audit's forward-chaining splits, whose training rows are then a run of positions. A fold's neighbours are
/// its training rows' nearest positions, ties going to the lower position, which is the lower training row
/// whenever the fold's training rows keep the stored order (`FoldEvaluator.evaluate(_:on:sharing:)`).
///
/// Built by the first fold that asks and freed when the last fold is done, so it is held only while the
/// model's folds run.
final class SharedNeighborTree: Sendable {
  /// What the first fold builds.
  struct Stored: Sendable {
    var tree: KDTree
    /// Class of each stored point.
    var labels: [Int]
  }

  private let shared: FoldShared<Stored>
  let leafSize: Int
  /// Folds sharing the tree; each is charged this share of its build as fit time.
  var folds: Int { shared.folds }
  /// Dataset row of each stored point, or `nil` for dataset order.
  let storedRows: [Int32]?
  /// Stored position of each dataset row, when `storedRows` is given.
  private let positions: [Int32]?

  init(leafSize: Int, folds: Int, storedRows: [Int32]? = nil) {
    self.leafSize = leafSize
    self.storedRows = storedRows
    positions = storedRows.map { rows in
      var positions = [Int32](repeating: 0, count: rows.count)
      for (position, row) in rows.enumerated() { positions[Int(row)] = Int32(position) }
      return positions
    }
    shared = FoldShared(folds: folds)
  }

  /// The stored position of a dataset row.
  func position(of row: Int) -> Int { positions.map { Int($0[row]) } ?? row }

  /// Runs `body` with the tree over `dataset`'s rows (built on first use), then counts this fold done.
  func use<T, E: Error>(_ dataset: Dataset, _ body: (FoldShared<Stored>.Built) throws(E) -> T) throws(E) -> T {
    try shared.use(
      building: {
        guard let storedRows else {
          return Stored(tree: KDTree(points: dataset.x, leafSize: leafSize), labels: dataset.labels)
        }
        return Stored(
          tree: KDTree(points: dataset.x.selecting(rows: storedRows.lazy.map { Int($0) }), leafSize: leafSize),
          labels: storedRows.map { dataset.labels[Int($0)] })
      }, body)
  }

  /// Counts a fold done without the tree (it took the per-fold path); the last one frees the tree.
  func done() { shared.done() }
}
