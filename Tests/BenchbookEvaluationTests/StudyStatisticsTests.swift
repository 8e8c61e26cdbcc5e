import BenchbookEvaluation
import Foundation
import Testing

/// scipy's, statsmodels' and baycomp's answers for the study's statistics, made by
/// `Fixtures/make_study_goldens.py`.
struct StudyGoldens: Decodable {
  struct Friedman: Decodable {
    var `case`: String
    var scores: [[Double]]
    var ranks: [[Double]]
    var statistic: Double
    var p_value: Double
    var iman_davenport_statistic: Double?
    var iman_davenport_p_value: Double
  }
  struct ChiSquaredTail: Decodable {
    var x: Double
    var df: Double
    var sf: Double
  }
  struct FTail: Decodable {
    var f: Double
    var d1: Double
    var d2: Double
    var sf: Double
  }
  struct RangeCDF: Decodable {
    var k: Int
    var q: Double
    var cdf: Double
  }
  struct RangeQuantile: Decodable {
    var k: Int
    var p: Double
    var q: Double
  }
  struct Wilcoxon: Decodable {
    var `case`: String
    var x: [Double]
    var y: [Double]
    var p_value: Double
    var statistic: Double
    var method: String
  }
  struct Holm: Decodable {
    var p: [Double]
    var adjusted: [Double]
  }
  struct Bayes: Decodable {
    var `case`: String
    var a: [Double]
    var b: [Double]
    var rope: Double
    var p_a_better: Double
    var p_equivalent: Double
    var p_b_better: Double
  }

  var bayes_samples: Int
  var friedman: [Friedman]
  var chi2_sf: [ChiSquaredTail]
  var f_sf: [FTail]
  var studentized_range_cdf: [RangeCDF]
  var studentized_range_ppf: [RangeQuantile]
  var wilcoxon: [Wilcoxon]
  var holm: [Holm]
  var bayes: [Bayes]

  static let shared: StudyGoldens = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/study_goldens.json")
    do {
      return try JSONDecoder().decode(StudyGoldens.self, from: Data(contentsOf: url))
    } catch {
      fatalError("cannot read \(url.path): \(error)")
    }
  }()
}

/// Within 1e-9 of scipy, absolutely and (for the distributions' tails, which are computed directly) relative to
/// the value, so far tails count too.
private func close(_ value: Double, _ expected: Double, relative: Bool = false) -> Bool {
  let tolerance = relative ? 1e-9 * abs(expected) : 1e-9
  return abs(value - expected) <= max(tolerance, relative ? 1e-300 : 0)
}

@Suite struct StudyStatisticsTests {
  let goldens = StudyGoldens.shared

  @Test func ranksAreAverageRanksLowestFirst() {
    for golden in goldens.friedman {
      #expect(FriedmanTest.ranks(lowerIsBetter: golden.scores) == golden.ranks, "\(golden.case)")
    }
  }

  @Test func friedmanAndImanDavenportEqualScipys() {
    for golden in goldens.friedman {
      let test = FriedmanTest(ranks: FriedmanTest.ranks(lowerIsBetter: golden.scores))
      #expect(close(test.statistic, golden.statistic), "\(golden.case): χ² \(test.statistic)")
      #expect(close(test.pValue, golden.p_value), "\(golden.case): p \(test.pValue)")
      #expect(abs(test.pValue - golden.p_value) <= 1e-9 * golden.p_value, "\(golden.case): relative p")
      switch (test.imanDavenportStatistic, golden.iman_davenport_statistic) {
      case (let f?, let expected?): #expect(close(f, expected), "\(golden.case): F \(f)")
      case (nil, nil): break
      case (let f, _):
        Issue.record("\(golden.case): F is \(String(describing: f)), scipy's infinite or finite otherwise")
      }
      #expect(close(test.imanDavenportPValue, golden.iman_davenport_p_value), "\(golden.case)")
    }
  }

  @Test func chiSquaredAndFTailsEqualScipys() {
    for golden in goldens.chi2_sf {
      let sf = ChiSquared(degreesOfFreedom: golden.df).survival(golden.x)
      #expect(close(sf, golden.sf, relative: true), "χ²(\(golden.df)) at \(golden.x): \(sf) against \(golden.sf)")
    }
    for golden in goldens.f_sf {
      let sf = FisherF(numeratorDegrees: golden.d1, denominatorDegrees: golden.d2).survival(golden.f)
      #expect(close(sf, golden.sf, relative: true), "F(\(golden.d1), \(golden.d2)) at \(golden.f): \(sf)")
    }
  }

  @Test func studentizedRangeEqualsScipys() {
    for golden in goldens.studentized_range_cdf {
      let cdf = StudentizedRange(groups: golden.k).cdf(golden.q)
      #expect(close(cdf, golden.cdf), "k \(golden.k), q \(golden.q): \(cdf) against \(golden.cdf)")
    }
    for golden in goldens.studentized_range_ppf {
      let q = StudentizedRange(groups: golden.k).quantile(golden.p)
      #expect(close(q, golden.q), "k \(golden.k), p \(golden.p): \(q) against \(golden.q)")
    }
  }

  /// Demšar's (2006) table 5, q_0.05 for 2 to 10 classifiers, to a unit in its third decimal (it prints 2.343 for
  /// k = 3 and 2.949 for k = 7, where the quantile over √2 is 2.34370 and 2.94832), and the critical difference it
  /// gives.
  @Test func nemenyiCriticalValuesAreDemsarsTable() {
    let table = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    for (index, expected) in table.enumerated() {
      let test = NemenyiTest(models: index + 2, datasets: 10, alpha: 0.05)
      #expect(abs(test.criticalValue - expected) <= 0.001, "k = \(index + 2): \(test.criticalValue)")
    }
    let test = NemenyiTest(models: 5, datasets: 20, alpha: 0.05)
    #expect(abs(test.criticalDifference - test.criticalValue * (5.0 * 6 / 120).squareRoot()) < 1e-15)
  }

  @Test func datasetsNeededReachTheCriticalDifferenceAndNoFewerDo() throws {
    let test = NemenyiTest(models: 5, datasets: 20, alpha: 0.05)
    for difference in [0.1, 0.35, 0.8, 1.3640, 2.5] {
      let needed = try #require(test.datasetsNeeded(for: difference))
      let atNeeded = NemenyiTest(models: 5, datasets: needed, alpha: 0.05).criticalDifference
      #expect(atNeeded <= difference)
      if needed > 1 {
        #expect(NemenyiTest(models: 5, datasets: needed - 1, alpha: 0.05).criticalDifference > difference)
      }
    }
    #expect(test.datasetsNeeded(for: 0) == nil)
  }

  @Test func wilcoxonEqualsScipys() {
    for golden in goldens.wilcoxon {
      let test = WilcoxonSignedRank(differences: zip(golden.x, golden.y).map { $0 - $1 })
      #expect(close(test.pValue, golden.p_value), "\(golden.case): \(test.pValue) against \(golden.p_value)")
      #expect(test.statistic == golden.statistic, "\(golden.case): statistic")
      #expect(test.method.rawValue == golden.method, "\(golden.case): method")
    }
  }

  @Test func wilcoxonIsSymmetricInItsArguments() {
    for golden in goldens.wilcoxon {
      let forward = WilcoxonSignedRank(differences: zip(golden.x, golden.y).map { $0 - $1 })
      let backward = WilcoxonSignedRank(differences: zip(golden.y, golden.x).map { $0 - $1 })
      #expect(forward.pValue == backward.pValue, "\(golden.case)")
    }
  }

  @Test func holmEqualsStatsmodels() {
    for golden in goldens.holm {
      let adjusted = HolmCorrection.adjusted(golden.p)
      #expect(zip(adjusted, golden.adjusted).allSatisfy { abs($0 - $1) <= 1e-15 }, "\(golden.p): \(adjusted)")
    }
    #expect(HolmCorrection.adjusted([]) == [])
  }

  /// baycomp draws its own samples: each probability is within five standard errors of the two estimates'
  /// difference (at least that of one draw in our sample count, so a reference of exactly 0 or 1 has room).
  @Test func bayesianSignedRankAgreesWithBaycomp() {
    let samples = BayesianSignedRank.defaultSamples
    for golden in goldens.bayes {
      let test = BayesianSignedRank(
        differences: zip(golden.b, golden.a).map { $0 - $1 }, rope: golden.rope, samples: samples, seed: 1)
      let pairs = [
        (test.aBetter, golden.p_a_better), (test.equivalent, golden.p_equivalent), (test.bBetter, golden.p_b_better),
      ]
      for (ours, theirs) in pairs {
        let p = max(ours * (1 - ours), theirs * (1 - theirs), 1 / Double(samples))
        let error = (p * (1 / Double(samples) + 1 / Double(goldens.bayes_samples))).squareRoot()
        #expect(abs(ours - theirs) <= 5 * error, "\(golden.case): \(ours) against baycomp's \(theirs)")
      }
      #expect(abs(test.aBetter + test.equivalent + test.bBetter - 1) < 1e-12)
    }
  }

  @Test func bayesianSignedRankIsTheSameBitsForTheSameSeed() {
    let differences = [0.01, -0.02, 0.015, 0.03, 0.0, 0.012, -0.004]
    let first = BayesianSignedRank(differences: differences, rope: 0.01, samples: 20_000, seed: 42)
    let second = BayesianSignedRank(differences: differences, rope: 0.01, samples: 20_000, seed: 42)
    let other = BayesianSignedRank(differences: differences, rope: 0.01, samples: 20_000, seed: 43)
    #expect(first == second)
    #expect(first != other, "another seed draws other samples")
    // Swapping the models swaps the outer probabilities (up to the draws' order of ties, none here).
    let swapped = BayesianSignedRank(differences: differences.map { -$0 }, rope: 0.01, samples: 20_000, seed: 42)
    #expect(swapped.aBetter == first.bBetter && swapped.bBetter == first.aBetter)
  }
}
