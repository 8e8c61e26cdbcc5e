import Testing

@testable import BenchbookEvaluation
@testable import BenchbookStudy

/// Shards split a study's cells: each cell to exactly one shard, the same way every time, loads balanced.
@Suite struct StudyPartitionTests {
  static func costs() -> [StudyPartition.Cell: Int] {
    var costs: [StudyPartition.Cell: Int] = [:]
    for experiment in 0..<4 {
      for model in 0..<5 {
        for fold in 0..<(3 + experiment) {
          costs[StudyPartition.Cell(experiment: experiment, cell: RunPlan.Cell(model: model, fold: fold))] =
            (model + 1) * (experiment * 400 + 100)
        }
      }
    }
    return costs
  }

  @Test(arguments: [1, 2, 3, 7])
  func everyCellGoesToOneShard(shards: Int) {
    let costs = Self.costs()
    let partition = StudyPartition(costs: costs, shards: shards)
    let all = partition.cells.flatMap { $0 }
    #expect(all.count == costs.count && Set(all) == Set(costs.keys))
    #expect(partition.costs.reduce(0, +) == costs.values.reduce(0, +))
    // Greedy longest-first: no shard exceeds the mean by more than the largest cell.
    let mean = Double(costs.values.reduce(0, +)) / Double(shards)
    #expect(partition.costs.allSatisfy { Double($0) <= mean + Double(costs.values.max()!) })
    for shard in partition.cells { #expect(shard == shard.sorted()) }
  }

  @Test func theSplitDoesNotDependOnTheDictionarysOrder() {
    let costs = Self.costs()
    let shuffled = Dictionary(uniqueKeysWithValues: costs.shuffled())
    #expect(StudyPartition(costs: costs, shards: 3).cells == StudyPartition(costs: shuffled, shards: 3).cells)
  }
}
