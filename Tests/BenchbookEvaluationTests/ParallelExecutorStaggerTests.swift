import BenchbookEvaluation
import Testing

/// A group's first task builds what its tasks share while the group's next tasks wait for it: the other threads
/// must get tasks that share nothing right after it, and everything else keeps its order.
@Suite struct ParallelExecutorStaggerTests {
  /// Tasks named by a letter per group: D and K share work, L and N do not; `A` is pinned to the end.
  static let tasks = ["D0", "D1", "D2", "K0", "K1", "L0", "L1", "N0", "A"]

  static func staggered(jobs: Int) -> [String] {
    let order = ParallelExecutor.staggered(
      Array(tasks.indices), jobs: jobs,
      sharedGroup: { index in
        switch tasks[index].first {
        case "D": 0
        case "K": 1
        default: nil
        }
      },
      movable: { tasks[$0] != "A" })
    return order.map { tasks[$0] }
  }

  @Test func twoThreadsPairEachBuilderWithATaskThatSharesNothing() {
    #expect(Self.staggered(jobs: 2) == ["D0", "L0", "D1", "D2", "K0", "L1", "K1", "N0", "A"])
  }

  @Test func threeThreadsPairEachBuilderWithTwo() {
    #expect(Self.staggered(jobs: 3) == ["D0", "L0", "L1", "D1", "D2", "K0", "N0", "K1", "A"])
  }

  @Test func oneThreadKeepsTheOrder() {
    #expect(Self.staggered(jobs: 1) == Self.tasks)
  }

  /// Nothing that may move is left: the order stays as it is.
  @Test func aPinnedTaskIsNeverPulled() {
    let order = ParallelExecutor.staggered(
      [0, 1, 2], jobs: 2, sharedGroup: { $0 < 2 ? 0 : nil }, movable: { _ in false })
    #expect(order == [0, 1, 2])
  }
}
