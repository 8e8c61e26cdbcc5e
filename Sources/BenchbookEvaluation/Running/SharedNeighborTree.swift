import BenchbookData
import BenchbookModels
import Synchronization

/// One neighbour index over every row, searched by many folds of an untuned k-nearest-neighbours model in place
/// of an index built per fold (ten kd-tree builds of nine tenths of the rows become one of all of them; brute
/// force gathers no fold's rows).
///
/// The index is the kind each fold's own fit would build (`SharedNeighborSearch.neighborIndexKind`): a kd-tree in few
/// dense dimensions, brute force with BLAS distances otherwise. It numbers its points in a stored order:
/// dataset order for cross-validation, time order for the audit's forward-chaining splits, whose training rows
/// are then a run of positions. A fold's neighbours are its training rows' nearest positions, ties going to the
/// lower position, which is the lower training row whenever the fold's training rows keep the stored order
/// (`FoldEvaluator.evaluate(_:on:sharing:)`).
///
/// Built by the first fold that asks and freed when the last fold is done, so it is held only while the
/// model's folds run.
final class SharedNeighborTree: Sendable {
  /// What the first fold builds.
  struct Stored: Sendable {
    var index: any SubsetNeighborIndex
    /// Class of each stored point.
    var labels: [Int]
  }

  private let shared: FoldShared<Stored>
  let leafSize: Int
  /// Folds sharing the index; each is charged this share of its build as fit time.
  var folds: Int { shared.folds }
  /// Dataset row of each stored point, or `nil` for dataset order.
  let storedRows: [Int32]?
  /// Stored position of each dataset row, when `storedRows` is given.
  private let positions: [Int32]?
  /// Whether the dataset's rows are sparse (`NeighborIndexKind.isSparse`), found by the first fold that asks.
  private let sparseRows = Mutex<Bool?>(nil)

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

  /// The index `neighbors` fitted on `rows` of `dataset`'s rows would build: the kind this one is for those
  /// folds. Sparseness is judged on every row, once.
  func kind(_ neighbors: any SharedNeighborSearch, rows: Int, of dataset: Dataset) -> NeighborIndexKind {
    let sparse = sparseRows.withLock { cached in
      if let cached { return cached }
      let sparse = NeighborIndexKind.isSparse(dataset.x)
      cached = sparse
      return sparse
    }
    return neighbors.neighborIndexKind(rows: rows, features: dataset.x.columns, sparse: sparse)
  }

  /// Runs `body` with the index over `dataset`'s rows (built on first use, of the first fold's `kind`), then
  /// counts this fold done. Folds rarely differ in kind (k at least half of one fold's rows but not another's);
  /// one that does searches the other kind, which finds the same neighbours.
  func use<T, E: Error>(
    _ dataset: Dataset, kind: NeighborIndexKind, _ body: (FoldShared<Stored>.Built) throws(E) -> T
  ) throws(E) -> T {
    try shared.use(
      building: {
        guard let storedRows else {
          return Stored(index: kind.build(dataset.x, leafSize: leafSize), labels: dataset.labels)
        }
        return Stored(
          index: kind.build(dataset.x.selecting(rows: storedRows.lazy.map { Int($0) }), leafSize: leafSize),
          labels: storedRows.map { dataset.labels[Int($0)] })
      }, body)
  }

  /// Counts a fold done without the index (it took the per-fold path); the last one frees the index.
  func done() { shared.done() }
}
