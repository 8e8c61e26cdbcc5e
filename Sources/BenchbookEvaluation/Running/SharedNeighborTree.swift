import BenchbookData
import BenchbookModels
import Dispatch
import Synchronization

/// One kd-tree over every row, searched by every fold of an untuned k-nearest-neighbours model in place of a
/// tree built per fold (ten builds of nine tenths of the rows become one of all of them).
///
/// Built by the first fold that asks and freed when the last fold is done, so it is held only while the
/// model's folds run. `FoldEvaluator.evaluate(_:on:sharing:)` says why the predictions are unchanged.
final class SharedNeighborTree: Sendable {
  private struct State {
    var tree: KDTree?
    var buildSeconds = 0.0
    var pending: Int
  }

  private let state: Mutex<State>
  let leafSize: Int
  /// Folds sharing the tree; each is charged this share of its build as fit time.
  let folds: Int

  init(leafSize: Int, folds: Int) {
    self.leafSize = leafSize
    self.folds = folds
    state = Mutex(State(pending: folds))
  }

  /// Runs `body` with the tree over `points` (built on first use) and the seconds its build took, then
  /// counts this fold done.
  func use<T, E: Error>(_ points: Matrix, _ body: (KDTree, Double) throws(E) -> T) throws(E) -> T {
    let (tree, seconds) = state.withLock { state in
      if state.tree == nil {
        let start = DispatchTime.now().uptimeNanoseconds
        state.tree = KDTree(points: points, leafSize: leafSize)
        state.buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      }
      return (state.tree!, state.buildSeconds)
    }
    defer { done() }
    return try body(tree, seconds)
  }

  /// Counts a fold done without the tree (it took the per-fold path); the last one frees the tree.
  func done() {
    state.withLock { state in
      state.pending -= 1
      if state.pending == 0 { state.tree = nil }
    }
  }
}
