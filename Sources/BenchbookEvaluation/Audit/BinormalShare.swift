import Foundation

/// The share of the null log-loss a feature of a given ROC AUC removes when it separates the classes as two
/// unit-variance normals do (the binormal model, d′ = √2 Φ⁻¹(AUC)), with a Bayes-optimal model at the class prior.
///
/// `suspect-leak` reads a drop-column share against it: an honest strong feature costs, when removed, about what its
/// separation explains; a large cost its AUC does not explain means its values are near-certain on part of their
/// range, as a post-outcome measurement's are.
enum BinormalShare {
  /// 1 − (Bayes log-loss) / (entropy of the prior), integrated on a fixed grid; 0 for AUC ≤ 0.5 or a degenerate prior.
  static func share(auc: Double, prior: Double) -> Double {
    guard auc > 0.5, prior > 0, prior < 1 else { return 0 }
    let d = 2.0.squareRoot() * inverseNormal(min(auc, 1 - 1e-12))
    let entropy = -(prior * log(prior) + (1 - prior) * log(1 - prior))
    let low = -10.0
    let high = d + 10
    let steps = 4000
    let dx = (high - low) / Double(steps)
    var loss = 0.0
    let offset = log(prior / (1 - prior)) - d * d / 2
    for i in 0...steps {
      let x = low + Double(i) * dx
      let weight = i == 0 || i == steps ? 0.5 : 1
      let logit = offset + d * x
      // −log p(1 | x) and −log p(0 | x), computed without overflow.
      let lossPositive = logit > 0 ? log1p(exp(-logit)) : -logit + log1p(exp(logit))
      let lossNegative = lossPositive + logit
      let positive = exp(-(x - d) * (x - d) / 2) / (2 * Double.pi).squareRoot()
      let negative = exp(-x * x / 2) / (2 * Double.pi).squareRoot()
      loss += weight * (prior * positive * lossPositive + (1 - prior) * negative * lossNegative) * dx
    }
    return max(0, 1 - loss / entropy)
  }

  /// Φ⁻¹ by bisection on erfc: exact enough for a screen's comparison and free of tabled coefficients.
  static func inverseNormal(_ p: Double) -> Double {
    var low = -40.0
    var high = 40.0
    for _ in 0..<200 {
      let mid = (low + high) / 2
      if 0.5 * erfc(-mid / 2.0.squareRoot()) < p { low = mid } else { high = mid }
    }
    return (low + high) / 2
  }
}
