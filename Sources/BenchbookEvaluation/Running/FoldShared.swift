import Dispatch
import Synchronization

/// Work one model's fits share instead of each doing its own (a tree over every row, features sorted once):
/// built by the first fit that asks, and freed when the last one is done, so it is held only while the
/// model's fits run. The fits are its folds (or the audit's splits, or a tuned model's splits), and for a decision
/// tree its fit on all rows.
final class FoldShared<Value: Sendable>: Sendable {
  /// What the first fold builds, and how long it took.
  struct Built: Sendable {
    var value: Value
    var buildSeconds: Double
  }

  private struct State {
    var built: Built?
    var pending: Int
    /// Times `make` ran: once, unless every user gave up the value before another asked (tests read it).
    var builds = 0
  }

  private let state: Mutex<State>
  /// Fits sharing the work; each fold is charged this share of its build as fit time.
  let folds: Int

  init(folds: Int) {
    self.folds = folds
    state = Mutex(State(pending: folds))
  }

  /// Runs `body` with the shared value (built by `make` on first use, while other folds wait), then counts
  /// this fold done.
  func use<T, E: Error>(building make: () -> Value, _ body: (Built) throws(E) -> T) throws(E) -> T {
    let built = state.withLock { state in
      if state.built == nil {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = make()
        state.builds += 1
        state.built = Built(value: value, buildSeconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      }
      return state.built!
    }
    defer { done() }
    return try body(built)
  }

  /// How many times the value was built, and how many fits have not yet counted themselves done.
  var counts: (builds: Int, pending: Int) { state.withLock { ($0.builds, $0.pending) } }

  /// Counts a fold done without the value (it took the per-fold path); the last one frees the value.
  func done() {
    state.withLock { state in
      state.pending -= 1
      if state.pending == 0 { state.built = nil }
    }
  }
}
