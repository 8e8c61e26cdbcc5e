import BenchbookData

/// scikit-learn's `StandardScaler`: centre on the training mean, divide by the
/// training population standard deviation (a constant feature is divided by 1).
///
/// Fitted on each training fold only, so test rows never inform the scaling.
public struct StandardScaler: Sendable, Hashable {
  public init() {}

  /// Missing cells (`NaN`, before an imputation) are left out of the column's statistics and stay `NaN`, as
  /// scikit-learn's scaler treats them; a column with no value is passed unchanged.
  public func fit(_ x: Matrix) -> FittedStandardScaler {
    var mean = [Double](repeating: 0, count: x.columns)
    var scale = [Double](repeating: 1, count: x.columns)
    guard x.rows > 0 else { return FittedStandardScaler(mean: mean, scale: scale) }
    var present = [Int](repeating: x.rows, count: x.columns)
    for r in 0..<x.rows {
      for c in 0..<x.columns {
        let value = x[r, c]
        if value.isNaN {
          present[c] -= 1
        } else {
          mean[c] += value
        }
      }
    }
    for c in 0..<x.columns { mean[c] = present[c] == 0 ? 0 : mean[c] / Double(present[c]) }
    var sumSquares = [Double](repeating: 0, count: x.columns)
    for r in 0..<x.rows {
      for c in 0..<x.columns where !x[r, c].isNaN {
        let d = x[r, c] - mean[c]
        sumSquares[c] += d * d
      }
    }
    for c in 0..<x.columns where present[c] > 0 {
      let sd = (sumSquares[c] / Double(present[c])).squareRoot()
      scale[c] = sd == 0 ? 1 : sd
    }
    return FittedStandardScaler(mean: mean, scale: scale)
  }
}

/// A fitted standardisation: `(x - mean) / scale`, column by column.
public struct FittedStandardScaler: Sendable, Hashable, Codable {
  public let mean: [Double]
  public let scale: [Double]

  /// The same scaler with `columns` passed unchanged: mean 0 and scale 1 there, so `(x - 0) / 1` is `x` exactly,
  /// and an exported pipeline needs no other form for a scaler of some columns only.
  public func leavingUnscaled(_ columns: some Sequence<Int>) -> FittedStandardScaler {
    var mean = mean
    var scale = scale
    for column in columns {
      mean[column] = 0
      scale[column] = 1
    }
    return FittedStandardScaler(mean: mean, scale: scale)
  }

  public func transform(_ x: Matrix) -> Matrix {
    var out = x
    transform(inPlace: &out)
    return out
  }

  /// `transform` written over `x`'s own values: a fold that owns its gathered rows standardises them without a
  /// second copy (the same arithmetic, so the same bits).
  public func transform(inPlace x: inout Matrix) {
    precondition(x.columns == mean.count, "scaler fitted on \(mean.count) columns, given \(x.columns)")
    let columns = x.columns
    let rows = x.rows
    mean.withUnsafeBufferPointer { mean in
      scale.withUnsafeBufferPointer { scale in
        x.values.withUnsafeMutableBufferPointer { values in
          for r in 0..<rows {
            for c in 0..<columns { values[r * columns + c] = (values[r * columns + c] - mean[c]) / scale[c] }
          }
        }
      }
    }
  }
}
