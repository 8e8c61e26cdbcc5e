import BenchbookData

/// Every measure of one model on one test fold.
public struct FoldScores: Sendable, Hashable, Codable {
  public var logLoss: Double
  public var accuracy: Double
  public var brier: Double
  /// `nil` when the fold's test rows do not hold two classes.
  public var rocAUC: Double?
  public var clippedRows: Int
  public var clippedShare: Double

  public init(probabilities: Matrix, labels: [Int]) {
    let logLoss = LogLoss.evaluate(probabilities, labels: labels)
    self.logLoss = logLoss.value
    clippedRows = logLoss.clippedRows
    clippedShare = logLoss.clippedShare
    accuracy = Accuracy.evaluate(probabilities, labels: labels)
    brier = BrierScore.evaluate(probabilities, labels: labels)
    rocAUC = ROCAUC.evaluate(probabilities, labels: labels)
  }
}
