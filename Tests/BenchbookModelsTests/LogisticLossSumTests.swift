@_spi(Testing) import BenchbookModels
import Foundation
import Testing

/// The solver sums log(1 + e) over rows as the log of their product. It must agree with log1p taken row by
/// row and summed exactly, to about the rounding of the sum itself, for every range of margins: many
/// products per block, rows split between the product and log1p, and rows so confident that 1 + e is 1.
@Suite struct LogisticLossSumTests {
  /// Σ log(1 + exp(∓m)) / n, each term by log1p, summed with Kahan's compensation.
  static func reference(margins: [Double], labels: [Int]) -> Double {
    var sum = 0.0
    var compensation = 0.0
    for (margin, label) in zip(margins, labels) {
      let signed = label == 1 ? -margin : margin
      let term = max(signed, 0) + log1p(exp(-abs(signed)))
      let y = term - compensation
      let t = sum + y
      compensation = (t - sum) - y
      sum = t
    }
    return sum / Double(margins.count)
  }

  /// Margins spread over ±`scale` around `centre` from a fixed generator, so a failure repeats; every third row
  /// is of class 1, or, when `confident`, every row is of the class its margin points to.
  static func rows(_ count: Int, centre: Double, scale: Double, confident: Bool) -> (
    margins: [Double], labels: [Int]
  ) {
    var twister = MersenneTwister(seed: UInt32(count))
    let margins = (0..<count).map { _ in centre + scale * (2 * Double(twister.next()) / Double(UInt32.max) - 1) }
    let labels = margins.indices.map { confident ? (margins[$0] > 0 ? 1 : 0) : ($0 % 3 == 0 ? 1 : 0) }
    return (margins, labels)
  }

  static let cases: [(name: String, count: Int, centre: Double, scale: Double, confident: Bool)] = [
    ("uncertain rows, many blocks", 5_000, 0, 2, false),
    ("both sides of the product floor", 3_000, 0, 12, false),
    ("confident rows, 1 + e rounds to 1", 2_000, 40, 5, true),
    ("confident rows near the product floor", 2_000, 0, 8, true),
    ("a single row", 1, 0.3, 0, false),
    ("one row past a product of 256", 257, 0, 1, false),
  ]

  @Test(arguments: cases.indices)
  func productOfTermsMatchesLog1pRowByRow(_ index: Int) {
    let c = Self.cases[index]
    let (margins, labels) = Self.rows(c.count, centre: c.centre, scale: c.scale, confident: c.confident)
    let expected = Self.reference(margins: margins, labels: labels)
    let got = LogisticRegression.meanBinaryLoss(margins: margins, labels: labels)
    #expect(abs(got - expected) <= 1e-14 * expected, "\(c.name): \(got) against \(expected)")
  }

  /// Every factor is 2 when every margin is 0: a block's product must stay finite.
  @Test func zeroMarginsGiveLogTwo() {
    let margins = [Double](repeating: 0, count: 2_048)
    let loss = LogisticRegression.meanBinaryLoss(margins: margins, labels: margins.indices.map { $0 % 2 })
    #expect(abs(loss - log(2)) <= 1e-15)
  }

}
