import BenchbookEvaluation
import Testing

@Suite struct StatisticsTests {
  /// Values from scipy.stats.t (scipy 1.17.1): t.sf(x, df) * 2 and t.ppf(q, df).
  /// The radix sort's order is a stable comparison sort's, on values with ties, both zeros, infinities and
  /// subnormals, and on values that differ only in their lowest or highest bits; so is the comparison sort's that
  /// short lists take (`comparisonSortRows` keys per radix pass: the first 200 of the grid, the specials alone, 100
  /// values differing in one digit, the specials with 1,000 of the grid, 700 of the 64-bit keys).
  @Test func sortedOrderIsAStableSortsOrder() {
    let special: [Double] = [0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1, -1]
    let grid = (0..<5_000).map { Double(($0 * 7_919) % 613) / 17 - 18 }
    let lowBits = (0..<300).map { Double(bitPattern: (0.5).bitPattern + UInt64(($0 * 37) % 101)) }
    let short: [[Double]] = [
      Array(grid.prefix(200)), special, Array(lowBits.prefix(100)), special + Array(grid.prefix(1_000)),
    ]
    for values in [special + grid, lowBits, grid.map { $0 * 1e300 }, [3, 3, 3], [2], []] + short {
      let expected = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
      #expect(SortedOrder.ascending(values).map(Int.init) == expected)
    }
    // Keys spread over all 64 bits, with repeats; and 32-bit ones, as the duplicate screen's hashes are.
    let keys = (0..<3_000).map { UInt64($0 % 1_000) &* 0x9E37_79B9_7F4A_7C15 }
    let expected = keys.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
    #expect(SortedOrder.ascending(keys: keys).map(Int.init) == expected)
    let few = Array(keys.prefix(700))
    #expect(SortedOrder.ascending(keys: few).map(Int.init) == Array(expected.filter { $0 < 700 }))
    let narrow = keys.map { UInt32(truncatingIfNeeded: $0 >> 17) }
    let narrowExpected = narrow.indices.sorted { narrow[$0] < narrow[$1] || (narrow[$0] == narrow[$1] && $0 < $1) }
    #expect(SortedOrder.ascending(keys: narrow).map(Int.init) == narrowExpected)
  }

  @Test(arguments: [
    (2.0, 9.0, 0.07655282377070101), (0.5, 3.0, 0.651447964848151), (4.2, 29.0, 0.00023184683639014843),
    (1.0, 1.0, 0.5000000000000001),
  ])
  func twoSidedPValues(t: Double, df: Double, expected: Double) {
    #expect(abs(StudentT(degreesOfFreedom: df).twoSidedPValue(t) - expected) <= 1e-12 * max(1, expected))
  }

  @Test(arguments: [(0.975, 9.0, 2.262157162798205), (0.975, 29.0, 2.045229642132703), (0.05, 4.0, -2.131846786326651)])
  func quantiles(p: Double, df: Double, expected: Double) {
    #expect(abs(StudentT(degreesOfFreedom: df).quantile(p) - expected) <= 1e-9)
  }

  /// Checked by hand: mean 0.02, sample variance 0.0001625, j = 5, ratio 0.25.
  @Test func correctedTestInflatesTheVariance() throws {
    let differences = [0.01, 0.03, 0.02, 0.005, 0.035]
    let test = try #require(CorrectedResampledTTest(differences: differences, testTrainRatio: 0.25))
    let variance = 0.000_162_5
    #expect(abs(test.meanDifference - 0.02) < 1e-15)
    #expect(abs(test.standardError - ((1.0 / 5 + 0.25) * variance).squareRoot()) < 1e-15)
    #expect(test.degreesOfFreedom == 4)
    #expect(test.lower < 0.02 && test.upper > 0.02)
    let naive = (variance / 5).squareRoot()
    #expect(test.standardError > naive, "the correction widens the error")
  }

  @Test func oneFoldHasNoTest() {
    #expect(CorrectedResampledTTest(differences: [0.1], testTrainRatio: 0.25) == nil)
  }

  @Test func identicalModelsAreIndistinguishable() throws {
    let test = try #require(CorrectedResampledTTest(differences: [0, 0, 0], testTrainRatio: 0.1))
    #expect(test.pValue == 1)
  }
}

@Suite struct MannWhitneyUTests {
  static let baseline = [1.0, 1.05, 0.98, 1.02, 1.1, 0.99, 1.03]

  /// scipy.stats.mannwhitneyu(a, b, alternative="greater", method="exact") (scipy 1.17.1).
  @Test func exactMatchesScipy() {
    let slower = [1.31, 1.42, 1.38, 1.45, 1.29, 1.5, 1.36]
    #expect(abs(MannWhitneyU.pValue(larger: slower, smaller: Self.baseline) - 0.0002913752913752914) < 1e-15)
    let oneOutlier = [1.01, 1.06, 0.97, 1.31, 1.11, 0.995, 1.035]
    #expect(abs(MannWhitneyU.pValue(larger: oneOutlier, smaller: Self.baseline) - 0.2674825174825175) < 1e-12)
  }

  /// method="asymptotic", with ties and with larger samples.
  @Test func normalApproximationMatchesScipy() {
    let p = MannWhitneyU.pValue(larger: [1, 2, 2, 3, 3, 3, 4, 5], smaller: [1, 1, 2, 2, 2, 3])
    #expect(abs(p - 0.05364051344874984) < 1e-12)
    let tied = MannWhitneyU.pValue(larger: [1.0, 1.05, 0.98, 1.31, 1.1, 0.99, 1.03], smaller: Self.baseline)
    #expect(abs(tied - 0.3497932763485362) < 1e-12)
    let large = MannWhitneyU.pValue(larger: (30..<60).map(Double.init), smaller: (0..<40).map(Double.init))
    #expect(abs(large - 3.4702865525799366e-11) < 1e-18)
  }

  @Test func fasterIsNotSlower() {
    #expect(MannWhitneyU.pValue(larger: [0.5, 0.6, 0.55], smaller: [1, 1.1, 1.2]) > 0.9)
  }
}
