/// Percentiles of single-row prediction times, in microseconds.
///
/// Percentiles are nearest-rank: the p-th is the smallest time at or above
/// which p % of the predictions finished, an actual measured time, never an
/// interpolation.
public struct LatencySummary: Sendable, Equatable, Codable {
  public var p50Microseconds: Double
  public var p99Microseconds: Double
  /// Predictions timed (warm-up excluded).
  public var predictions: Int

  public init(p50Microseconds: Double, p99Microseconds: Double, predictions: Int) {
    self.p50Microseconds = p50Microseconds
    self.p99Microseconds = p99Microseconds
    self.predictions = predictions
  }

  /// Summarises measured durations in nanoseconds (at least one).
  public init(nanoseconds: [UInt64]) {
    precondition(!nanoseconds.isEmpty, "no durations to summarise")
    let sorted = nanoseconds.sorted()
    func percentile(_ p: Int) -> Double {
      let rank = (p * sorted.count + 99) / 100  // ⌈p·n/100⌉, 1-based
      return Double(sorted[max(rank, 1) - 1]) / 1000
    }
    self.init(p50Microseconds: percentile(50), p99Microseconds: percentile(99), predictions: sorted.count)
  }

  private enum CodingKeys: String, CodingKey {
    case p50Microseconds = "p50"
    case p99Microseconds = "p99"
    case predictions
  }
}
