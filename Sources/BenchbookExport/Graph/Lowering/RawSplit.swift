import BenchbookModels

/// A tree split restated on the raw inputs an app passes in float32.
///
/// The fitted tree sends a row left when `Float(z) <= t`, where z is the
/// design-matrix value after the spec's standardisation (applied in double
/// precision, scaler after scaler, as Benchbook applies it). A graph runtime
/// compares the app's float32 input v itself. Standardising is increasing in
/// v, so the rows going left are exactly those with v up to some float32 T:
/// found by bisection over the float32 values in order, T decides every
/// float32 input exactly as the fitted tree decides it.
enum RawSplit {
  /// The largest float32 v the fitted tree sends left, for a split of `column` at `threshold`;
  /// −infinity when none is, +infinity when every finite one is.
  /// - Parameter float32: whether the fit compares z rounded to float32 (a tree's split) or z itself (histogram
  ///   boosting's).
  static func threshold(_ threshold: Double, column: Int, scalers: [FittedStandardScaler], float32: Bool = true)
    -> Float
  {
    func goesLeft(_ v: Float) -> Bool {
      var z = Double(v)
      for scaler in scalers { z = (z - scaler.mean[column]) / scaler.scale[column] }
      return (float32 ? Double(Float(z)) : z) <= threshold
    }
    // Float32 values in order as integers: the sign-magnitude bits made monotone.
    func key(_ v: Float) -> Int64 {
      let bits = Int64(v.bitPattern & 0x7FFF_FFFF)
      return v.sign == .minus ? -bits : bits
    }
    func value(_ key: Int64) -> Float {
      key < 0 ? -Float(bitPattern: UInt32(-key)) : Float(bitPattern: UInt32(key))
    }
    var low = key(-.greatestFiniteMagnitude)
    var high = key(.greatestFiniteMagnitude)
    guard goesLeft(value(low)) else { return -.infinity }
    guard !goesLeft(value(high)) else { return .infinity }
    // Invariant: goesLeft(value(low)), !goesLeft(value(high)).
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if goesLeft(value(middle)) { low = middle } else { high = middle }
    }
    return value(low)
  }
}
