import Foundation

/// Compares two models scored on the same folds, allowing for the overlap of
/// training sets that makes the plain paired t-test far too confident.
///
/// Nadeau & Bengio's corrected resampled t-test (Machine Learning 52, 2003)
/// inflates the variance of the mean difference by n_test / n_train; for r
/// repeats of k-fold, Bouckaert & Frank's corrected repeated k-fold test
/// (PAKDD 2004) is the same statistic over all k·r folds.
public struct CorrectedResampledTTest: Sendable, Hashable {
  /// Mean of (other − reference) over folds.
  public var meanDifference: Double
  /// Standard error after the correction.
  public var standardError: Double
  public var t: Double
  public var degreesOfFreedom: Int
  public var pValue: Double
  /// Two-sided confidence interval for the mean difference.
  public var lower: Double
  public var upper: Double
  public var confidence: Double

  /// - Parameters:
  ///   - differences: per-fold score differences, paired by fold.
  ///   - testTrainRatio: mean n_test / n_train over the folds.
  /// - Returns: `nil` with fewer than two folds, where no variance can be estimated.
  public init?(differences: [Double], testTrainRatio: Double, confidence: Double = 0.95) {
    let j = differences.count
    guard j >= 2 else { return nil }
    let mean = differences.reduce(0, +) / Double(j)
    let variance = differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(j - 1)
    let standardError = ((1 / Double(j) + testTrainRatio) * variance).squareRoot()
    let distribution = StudentT(degreesOfFreedom: Double(j - 1))
    meanDifference = mean
    self.standardError = standardError
    degreesOfFreedom = j - 1
    self.confidence = confidence
    if standardError == 0 {
      // Identical on every fold (or a constant shift): no uncertainty to speak of.
      t = mean == 0 ? 0 : (mean > 0 ? .infinity : -.infinity)
      pValue = mean == 0 ? 1 : 0
      lower = mean
      upper = mean
      return
    }
    t = mean / standardError
    pValue = distribution.twoSidedPValue(t)
    let half = distribution.quantile(0.5 + confidence / 2) * standardError
    lower = mean - half
    upper = mean + half
  }
}
