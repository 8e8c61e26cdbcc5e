import BenchbookData

/// scikit-learn's `_BinMapper` for numeric features: each feature's values cut into at most `maxBins` bins
/// by thresholds learned on the training rows, missing values (NaN) in a bin of their own after them.
///
/// Histogram gradient boosting splits on bins, never on raw values, so the thresholds decide every split it can
/// make; they are computed here as scikit-learn 1.9.1 computes them: midpoints between consecutive distinct values
/// when a feature has at most `maxBins` of them, else NumPy's `percentile(..., method="averaged_inverted_cdf")`
/// at `maxBins − 1` evenly spaced percents, duplicates dropped, capped at 1e300. Above 200,000 rows the
/// thresholds come from 200,000 rows drawn with replacement by `RandomState(seed).choice`, as in scikit-learn.
public struct FeatureBinning: Sendable {
  /// Each feature's increasing thresholds: a value `x` goes to bin `i` when
  /// `thresholds[i - 1] < x <= thresholds[i]`.
  public let thresholds: [[Double]]
  /// The bin of missing values: `maxBins` (scikit-learn's `missing_values_bin_idx_`).
  public let missingBin: Int

  /// scikit-learn's `subsample` of `_BinMapper`.
  public static let subsampleSize = 200_000
  /// scikit-learn's `ALMOST_INF`: no threshold is infinite.
  static let almostInfinity = 1e300

  /// Learns the thresholds of every column of `x` (rows in the order given), with at most `maxBins` bins
  /// for non-missing values (2...255).
  public init(_ x: Matrix, maxBins: Int, seed: UInt32) {
    precondition((2...255).contains(maxBins), "max bins must be in 2...255")
    missingBin = maxBins
    var rows = Array(0..<x.rows)
    if x.rows > Self.subsampleSize {
      var rng = MersenneTwister(seed: seed)
      rows = (0..<Self.subsampleSize).map { _ in Int(rng.integer(below: UInt64(x.rows))) }
    }
    var thresholds: [[Double]] = []
    thresholds.reserveCapacity(x.columns)
    for feature in 0..<x.columns {
      let column = rows.map { x[$0, feature] }.filter { !$0.isNaN }
      thresholds.append(Self.thresholds(column, maxBins: maxBins))
    }
    self.thresholds = thresholds
  }

  /// Bins of non-missing values per feature (scikit-learn's `n_bins_non_missing_`).
  public var nonMissingBinCounts: [Int] { thresholds.map { $0.count + 1 } }

  /// `_find_binning_thresholds` on one feature's non-missing values.
  static func thresholds(_ values: [Double], maxBins: Int) -> [Double] {
    let sorted = values.sorted()
    var distinct: [Double] = []
    for value in sorted where distinct.last != value { distinct.append(value) }
    if distinct.count <= 1 { return [] }
    var cuts: [Double]
    if distinct.count <= maxBins {
      cuts = (1..<distinct.count).map { (distinct[$0 - 1] + distinct[$0]) / 2 }
    } else {
      cuts = percentiles(sorted, maxBins: maxBins)
      var unique: [Double] = []
      for cut in cuts.sorted() where unique.last != cut { unique.append(cut) }
      if unique.count != cuts.count { cuts = unique }
    }
    return cuts.map { $0.isNaN ? $0 : min($0, almostInfinity) }
  }

  /// `np.percentile(sorted, np.linspace(0, 100, maxBins + 1)[1:-1], method="averaged_inverted_cdf")`, in
  /// NumPy's arithmetic: the virtual index `n·q − 1`, the value after it, or the mean of the two around it
  /// when it is whole (NumPy's `_lerp` at 0.5).
  static func percentiles(_ sorted: [Double], maxBins: Int) -> [Double] {
    let n = sorted.count
    let step = 100.0 / Double(maxBins)
    return (1..<maxBins).map { i in
      let q = (Double(i) * step) / 100
      let virtual = Double(n) * q - 1
      var previous = virtual.rounded(.down)
      var next = previous + 1
      if virtual >= Double(n - 1) {
        previous = -1
        next = -1
      }
      if virtual < 0 {
        previous = 0
        next = 0
      }
      let gamma = virtual - previous == 0 ? 0.5 : 1.0
      let a = sorted[previous < 0 ? n - 1 : Int(previous)]
      let b = sorted[next < 0 ? n - 1 : Int(next)]
      let difference = b - a
      return gamma >= 0.5 ? b - difference * (1 - gamma) : a + difference * gamma
    }
  }

  /// The bin of `value` in `feature`: a binary search of its thresholds, `missingBin` for NaN.
  @inline(__always)
  public func bin(_ value: Double, feature: Int) -> UInt8 {
    if value.isNaN { return UInt8(missingBin) }
    return thresholds[feature].withUnsafeBufferPointer { cuts in
      var left = 0
      var right = cuts.count
      while left < right {
        let middle = left + (right - left - 1) / 2
        if value <= cuts[middle] { right = middle } else { left = middle + 1 }
      }
      return UInt8(left)
    }
  }

  /// Every value of `x` binned, column-major (feature by feature), as scikit-learn's Fortran-ordered
  /// `X_binned`.
  public func transform(_ x: Matrix) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: x.rows * x.columns)
    for feature in 0..<x.columns {
      for row in 0..<x.rows { out[feature * x.rows + row] = bin(x[row, feature], feature: feature) }
    }
    return out
  }
}
