import Testing

@testable import BenchbookReport

/// The bars of a critical-difference diagram join maximal runs of models closer than the critical difference.
@Suite struct CliqueBarsTests {
  @Test func maximalRunsCloserThanTheDifference() {
    // Demšar's figure 1 layout: four ranks, CD 1.0.
    #expect(CliqueBars.groups(sortedRanks: [1.0, 1.5, 2.2, 3.5], criticalDifference: 1.0) == [0...1, 1...2])
    #expect(CliqueBars.groups(sortedRanks: [1.0, 2.0, 3.0], criticalDifference: 0.5) == [])
    #expect(CliqueBars.groups(sortedRanks: [1.0, 2.0, 3.0], criticalDifference: 5) == [0...2])
    // Exactly the critical difference apart is a significant difference: no bar.
    #expect(CliqueBars.groups(sortedRanks: [1.0, 2.0], criticalDifference: 1.0) == [])
  }
}
