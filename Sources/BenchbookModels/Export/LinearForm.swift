import BenchbookData

/// Linear class scores z = W·x + b, turned into probabilities by a softmax
/// over K rows, or, with a single row and two classes, by a sigmoid:
/// P(class 1) = 1 / (1 + exp(−z)).
///
/// Logistic regression and LDA take this form; so does a class-prior baseline
/// (zero weights, intercepts = log priors).
public struct LinearForm: Sendable, Equatable {
  /// How scores become probabilities.
  public enum Link: String, Sendable, Equatable {
    /// One row per class, probabilities = softmax(z).
    case softmax
    /// One row, two classes: P(class 1) = σ(z), P(class 0) = 1 − σ(z).
    case sigmoid
  }

  /// One row per score, one column per design-matrix column.
  public let weights: Matrix
  /// One per row of `weights`.
  public let intercepts: [Double]
  public let link: Link
  /// Whether the weights minimise the log-loss of the training rows (logistic regression), so that
  /// gradient descent on an app's own examples continues the same fit; LDA's come from class densities.
  public let minimisesLogLoss: Bool

  public init(weights: Matrix, intercepts: [Double], link: Link, minimisesLogLoss: Bool) {
    precondition(weights.rows == intercepts.count, "one intercept per weight row")
    precondition(link == .softmax ? weights.rows >= 2 : weights.rows == 1, "a softmax needs K ≥ 2 rows, a sigmoid one")
    self.weights = weights
    self.intercepts = intercepts
    self.link = link
    self.minimisesLogLoss = minimisesLogLoss
  }

  /// The form of scikit-learn's linear models: one row for two classes (sigmoid), K rows otherwise (softmax).
  public init(coefficients: Matrix, intercepts: [Double], minimisesLogLoss: Bool) {
    self.init(
      weights: coefficients, intercepts: intercepts, link: coefficients.rows == 1 ? .sigmoid : .softmax,
      minimisesLogLoss: minimisesLogLoss)
  }

  public var featureCount: Int { weights.columns }
  public var classCount: Int { link == .sigmoid ? 2 : weights.rows }

  /// The K softmax rows this form is equal to: a sigmoid's z becomes the rows (0, z), since
  /// softmax(0, z) = (1 − σ(z), σ(z)).
  public var softmaxRows: (weights: Matrix, intercepts: [Double]) {
    guard link == .sigmoid else { return (weights, intercepts) }
    return (
      Matrix(rows: 2, columns: featureCount, values: Array(repeating: 0, count: featureCount) + weights.values),
      [0, intercepts[0]]
    )
  }
}
