import BenchbookEvaluation

/// Which shard computes which (experiment, model, fold) cell of a study: the cells of every experiment that is
/// run, largest first, each to the least loaded shard, so every shard of the same study, on any machine, agrees
/// without talking to the others.
public struct StudyPartition: Sendable {
  /// A cell of one experiment (by its position among the study's experiments).
  public struct Cell: Sendable, Hashable, Comparable {
    public var experiment: Int
    public var cell: RunPlan.Cell

    public static func < (a: Cell, b: Cell) -> Bool { (a.experiment, a.cell) < (b.experiment, b.cell) }
  }

  public let count: Int
  /// Per shard, its cells in (experiment, fold, model) order.
  public let cells: [[Cell]]
  /// Per shard, its summed cost (relative units).
  public let costs: [Int]

  /// - Parameter costs: every cell to share out with its cost: the run plan's estimate for its tasks, times the
  ///   rows its fold trains on (`cellCosts`), so a large dataset's folds weigh more than a small one's.
  public init(costs cellCosts: [Cell: Int], shards: Int) {
    precondition(shards >= 1, "at least one shard")
    let largestFirst = cellCosts.keys.sorted {
      cellCosts[$0]! != cellCosts[$1]! ? cellCosts[$0]! > cellCosts[$1]! : $0 < $1
    }
    var cells = [[Cell]](repeating: [], count: shards)
    var loads = [Int](repeating: 0, count: shards)
    for cell in largestFirst {
      let target = loads.indices.min { loads[$0] != loads[$1] ? loads[$0] < loads[$1] : $0 < $1 }!
      cells[target].append(cell)
      loads[target] += cellCosts[cell]!
    }
    count = shards
    self.cells = cells.map { $0.sorted() }
    costs = loads
  }

  /// The cells of experiment `index` of `plan`, with their costs.
  public static func cellCosts(_ plan: RunPlan, experiment index: Int) -> [Cell: Int] {
    var costs: [Cell: Int] = [:]
    for task in plan.tasks {
      guard let cell = task.cell else { continue }
      let rows = max(1, plan.plan.folds[cell.fold].train.count)
      costs[Cell(experiment: index, cell: cell), default: 0] += plan.cost(task) * rows
    }
    return costs
  }

  /// Indices into `plan.tasks` of the tasks shard `shard` computes for experiment `index`.
  public func taskIndices(_ plan: RunPlan, experiment index: Int, shard: Int) -> [Int] {
    let mine = Set(cells[shard].filter { $0.experiment == index }.map(\.cell))
    return plan.tasks.indices.filter { plan.tasks[$0].cell.map(mine.contains) ?? false }
  }
}
