import BenchbookData
import Foundation

/// Gaussian class densities with independent features:
/// P(class k | x) ∝ πₖ · Πⱼ N(xⱼ; μₖⱼ, σ²ₖⱼ), normalised over the classes.
///
/// Each class's log-density is a sum of squared scaled distances with no cross
/// terms, so a file can compute it as bₖ − Σⱼ ((xⱼ − μₖⱼ)·sₖⱼ)² followed by a
/// softmax (`GaussianDistances` in the export module).
public struct GaussianForm: Sendable, Equatable {
  /// Class means, K×d.
  public let means: Matrix
  /// Class variances, K×d, every one positive.
  public let variances: Matrix
  /// Class priors πₖ, positive, summing to 1.
  public let priors: [Double]

  public init(means: Matrix, variances: Matrix, priors: [Double]) {
    precondition(means.rows == priors.count && variances.rows == priors.count, "one row per class")
    precondition(means.columns == variances.columns, "one variance per mean")
    self.means = means
    self.variances = variances
    self.priors = priors
  }

  public var featureCount: Int { means.columns }
  public var classCount: Int { priors.count }
  /// log πₖ.
  public var logPriors: [Double] { priors.map { log($0) } }
}
