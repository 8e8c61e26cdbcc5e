import BenchbookData

/// Predicted probability against observed frequency, in ten equal bins: what a
/// reliability diagram draws. Log-loss punishes miscalibration above all, so
/// this shows where a model's probabilities are too sure or too timid.
///
/// Two classes: the probability of the second class against whether the row is
/// of it (scikit-learn's `calibration_curve`). More classes: every class's
/// column against membership of that class, pooled (one-vs-rest).
public struct CalibrationBins: Sendable, Hashable, Codable {
  public static let binCount = 10
  public private(set) var counts: [Int]
  /// Sums over the rows of each bin, added in row order.
  public private(set) var predictedSums: [Double]
  public private(set) var observedSums: [Double]

  public init() {
    counts = [Int](repeating: 0, count: Self.binCount)
    predictedSums = [Double](repeating: 0, count: Self.binCount)
    observedSums = [Double](repeating: 0, count: Self.binCount)
  }

  enum CodingKeys: String, CodingKey {
    case counts, predictedSums, observedSums
  }

  /// Reads bins back from a shard file: exactly `binCount` in every list and no count below 0 or above
  /// `Limits.recordedCount`, so pooling folds never indexes past a list cut short nor sums past `Int`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    counts = try container.decode([Int].self, forKey: .counts)
    predictedSums = try container.decode([Double].self, forKey: .predictedSums)
    observedSums = try container.decode([Double].self, forKey: .observedSums)
    let lengths: [(CodingKeys, Int)] = [
      (.counts, counts.count), (.predictedSums, predictedSums.count), (.observedSums, observedSums.count),
    ]
    for (key, length) in lengths where length != Self.binCount {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container, debugDescription: "holds \(length) bins, not \(Self.binCount)")
    }
    if let count = counts.first(where: { $0 < 0 || $0 > Limits.recordedCount }) {
      throw DecodingError.dataCorruptedError(
        forKey: .counts, in: container,
        debugDescription: "holds \(count), not a count from 0 to \(Limits.recordedCount)")
    }
    if let sum = (predictedSums + observedSums).first(where: { !$0.isFinite || $0 < 0 }) {
      throw DecodingError.dataCorruptedError(
        forKey: .predictedSums, in: container, debugDescription: "holds \(sum), not a finite sum of probabilities")
    }
  }

  public init(probabilities: Matrix, labels: [Int]) {
    self.init()
    let classes = probabilities.columns
    let columns = classes == 2 ? [1] : Array(0..<classes)
    for row in 0..<probabilities.rows {
      for column in columns {
        let p = probabilities[row, column]
        let bin = min(Self.binCount - 1, max(0, Int(p * Double(Self.binCount))))
        counts[bin] += 1
        predictedSums[bin] += p
        observedSums[bin] += labels[row] == column ? 1 : 0
      }
    }
  }

  /// Pools another fold's bins into these (folds are added in fold order, so the sums are reproducible).
  public mutating func add(_ other: CalibrationBins) {
    for bin in 0..<Self.binCount {
      counts[bin] += other.counts[bin]
      predictedSums[bin] += other.predictedSums[bin]
      observedSums[bin] += other.observedSums[bin]
    }
  }

  /// As results record it: only counts and means, never rows, with the measures of the pooled predictions.
  public func record(positiveClass: String?, measures: CalibrationMeasures?) -> CalibrationRecord {
    CalibrationRecord(
      positiveClass: positiveClass, ece: measures?.ece, slope: measures?.slope, intercept: measures?.intercept,
      reliability: measures?.reliability, resolution: measures?.resolution, uncertainty: measures?.uncertainty,
      meanGap: measures?.meanGap,
      bins: (0..<Self.binCount).map { bin in
        CalibrationRecord.Bin(
          lower: Double(bin) / Double(Self.binCount), upper: Double(bin + 1) / Double(Self.binCount),
          count: counts[bin], meanPredicted: counts[bin] == 0 ? nil : predictedSums[bin] / Double(counts[bin]),
          observedRate: counts[bin] == 0 ? nil : observedSums[bin] / Double(counts[bin]))
      })
  }
}

/// A model's reliability diagram, pooled over its test folds (`models[].calibration`).
public struct CalibrationRecord: Codable, Sendable, Hashable {
  public struct Bin: Codable, Sendable, Hashable {
    public var lower: Double
    public var upper: Double
    /// Predictions that fell in the bin (rows, or rows × classes one-vs-rest).
    public var count: Int
    public var meanPredicted: Double?
    public var observedRate: Double?
  }

  /// The class whose probability is binned (two classes); `nil` when every class is pooled one-vs-rest.
  public var positiveClass: String?
  /// `CalibrationMeasures` of the pooled out-of-fold predictions; absent from results written before them.
  public var ece: Double?
  public var slope: Double?
  public var intercept: Double?
  public var reliability: Double?
  public var resolution: Double?
  public var uncertainty: Double?
  public var meanGap: Double?
  public var bins: [Bin]

  public init(
    positiveClass: String? = nil, ece: Double? = nil, slope: Double? = nil, intercept: Double? = nil,
    reliability: Double? = nil, resolution: Double? = nil, uncertainty: Double? = nil, meanGap: Double? = nil,
    bins: [Bin]
  ) {
    self.positiveClass = positiveClass
    self.ece = ece
    self.slope = slope
    self.intercept = intercept
    self.reliability = reliability
    self.resolution = resolution
    self.uncertainty = uncertainty
    self.meanGap = meanGap
    self.bins = bins
  }
}
