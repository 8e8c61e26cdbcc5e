/// Which shard computes which (model, fold) cell: a deterministic split balanced by each cell's estimated cost,
/// so every shard of the same spec and data, on any machine, agrees without talking to the others.
public struct ShardPartition: Sendable {
  public let count: Int
  /// Per shard, its cells in (fold, model) order.
  public let cells: [[RunPlan.Cell]]
  /// Per shard, the summed cost estimate of its cells (relative units).
  public let costs: [Int]

  /// Largest cells first, each to the least loaded shard (the lowest index among equals).
  public init(_ plan: RunPlan, shards: Int) {
    precondition(shards >= 1, "at least one shard")
    var cost: [RunPlan.Cell: Int] = [:]
    for task in plan.tasks {
      if let cell = task.cell { cost[cell, default: 0] += plan.cost(task) }
    }
    let largestFirst = cost.keys.sorted { cost[$0]! != cost[$1]! ? cost[$0]! > cost[$1]! : $0 < $1 }
    var cells = [[RunPlan.Cell]](repeating: [], count: shards)
    var loads = [Int](repeating: 0, count: shards)
    for cell in largestFirst {
      let target = loads.indices.min { loads[$0] != loads[$1] ? loads[$0] < loads[$1] : $0 < $1 }!
      cells[target].append(cell)
      loads[target] += cost[cell]!
    }
    count = shards
    self.cells = cells.map { $0.sorted() }
    costs = loads
  }

  /// Indices into `plan.tasks` of the tasks shard `index` computes.
  public func taskIndices(_ plan: RunPlan, shard index: Int) -> [Int] {
    let mine = Set(cells[index])
    return plan.tasks.indices.filter { plan.tasks[$0].cell.map(mine.contains) ?? false }
  }

  /// Indices of the tasks no shard computes: the fits on all rows and a tuned model's final choice, which the
  /// merge step runs beside the leak audit and the on-device measurements.
  public static func mergeTaskIndices(_ plan: RunPlan) -> [Int] {
    plan.tasks.indices.filter { plan.tasks[$0].cell == nil }
  }
}
