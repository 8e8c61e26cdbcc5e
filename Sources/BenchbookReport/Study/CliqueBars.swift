import BenchbookEvaluation

/// The groups a critical-difference diagram joins with a bar: maximal runs of models, in order of mean rank, whose
/// extreme mean ranks differ by less than the critical difference, so no two of them differ significantly.
enum CliqueBars {
  /// Index ranges into `sortedRanks` (ascending), each of at least two models and none inside another.
  static func groups(sortedRanks: [Double], criticalDifference: Double) -> [ClosedRange<Int>] {
    var groups: [ClosedRange<Int>] = []
    var reached = 0
    for start in sortedRanks.indices {
      var end = start
      while end + 1 < sortedRanks.count && sortedRanks[end + 1] - sortedRanks[start] < criticalDifference { end += 1 }
      if end > start && end > reached {
        groups.append(start...end)
        reached = end
      }
    }
    return groups
  }
}
