/// Every timing sample of the single-threaded timing pass, kept so a judgement
/// can be checked by hand.
public struct TimingSamples: Codable, Sendable, Hashable {
  /// Interleaved rounds; each times every model once.
  public var rounds: Int
  /// The fold every round fits and predicts on.
  public var fold: Int
  public var models: [ModelTiming]

  public func model(_ label: String) -> ModelTiming? { models.first { $0.label == label } }
}

/// One model's samples, one per round.
public struct ModelTiming: Codable, Sendable, Hashable {
  public var label: String
  /// Fits averaged into each fit sample, and predictions into each predict sample,
  /// so that every sample lasts long enough to time.
  public var fitRepetitions: Int
  public var predictRepetitions: Int
  public var fitSeconds: [Double]
  public var predictSeconds: [Double]
  /// The reference workload's seconds, timed right before this model in the same round.
  public var referenceSeconds: [Double]

  public init(
    label: String, fitRepetitions: Int, predictRepetitions: Int, fitSeconds: [Double], predictSeconds: [Double],
    referenceSeconds: [Double]
  ) {
    self.label = label
    self.fitRepetitions = fitRepetitions
    self.predictRepetitions = predictRepetitions
    self.fitSeconds = fitSeconds
    self.predictSeconds = predictSeconds
    self.referenceSeconds = referenceSeconds
  }

  /// Adds the samples of `other` (the same model, timed again) after these.
  public mutating func append(_ other: ModelTiming) {
    fitRepetitions = other.fitRepetitions
    predictRepetitions = other.predictRepetitions
    fitSeconds += other.fitSeconds
    predictSeconds += other.predictSeconds
    referenceSeconds += other.referenceSeconds
  }

  /// Model time ÷ reference time, per round: what the regression check compares.
  public var fitRatios: [Double] { zip(fitSeconds, referenceSeconds).map { $0 / $1 } }
  public var predictRatios: [Double] { zip(predictSeconds, referenceSeconds).map { $0 / $1 } }
}

extension Array where Element == Double {
  /// The median (mean of the middle two for an even count); NaN when empty.
  public var median: Double {
    guard !isEmpty else { return .nan }
    let sorted = self.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
