import BenchbookData
import BenchbookEvaluation
import Testing

@Suite struct CalibrationBinsTests {
  /// Two classes bin the second class's probability against whether the row is of it.
  @Test func twoClassesBinTheSecondClass() {
    let probabilities = Matrix(rows: 4, columns: 2, values: [0.95, 0.05, 0.4, 0.6, 0.35, 0.65, 0.0, 1.0])
    let record = CalibrationBins(probabilities: probabilities, labels: [0, 1, 0, 1]).record(positiveClass: "yes", measures: nil)
    #expect(record.positiveClass == "yes")
    #expect(record.bins.map(\.count) == [1, 0, 0, 0, 0, 0, 2, 0, 0, 1])
    #expect(record.bins[6].meanPredicted == (0.6 + 0.65) / 2)
    #expect(record.bins[6].observedRate == 0.5)
    #expect(record.bins[9].observedRate == 1)
    #expect(record.bins[3].meanPredicted == nil && record.bins[3].observedRate == nil)
  }

  /// More classes pool every column one-vs-rest; folds pool by adding.
  @Test func moreClassesPoolOneVersusRest() {
    let probabilities = Matrix(rows: 2, columns: 3, values: [0.7, 0.2, 0.1, 0.1, 0.1, 0.8])
    var bins = CalibrationBins(probabilities: probabilities, labels: [0, 2])
    #expect(bins.counts.reduce(0, +) == 6)
    bins.add(bins)
    let record = bins.record(positiveClass: nil, measures: nil)
    #expect(record.bins.map(\.count).reduce(0, +) == 12)
    #expect(record.bins[1].count == 6)
    #expect(record.bins[1].observedRate == 0)
    #expect(record.bins[7].observedRate == 1 && record.bins[8].observedRate == 1)
  }
}
