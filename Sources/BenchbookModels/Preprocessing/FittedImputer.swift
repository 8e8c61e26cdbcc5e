import BenchbookData

/// A fitted imputation: each imputed feature's fill from one training fold, and the missing-indicator columns
/// appended after the input's columns, one per feature that missed values in that fold, in feature order
/// (scikit-learn's `SimpleImputer(add_indicator=True)` with `MissingIndicator(features="missing-only")`).
public struct FittedImputer: Sendable, Hashable {
  /// One feature's fill.
  public struct Fill: Sendable, Hashable {
    public var name: String
    public var columns: Range<Int>
    /// What a missing row's columns take: one number, or a categorical feature's one-hot row. `NaN` when the
    /// training fold had no value to compute a statistic from.
    public var values: [Double]
    public var strategy: Imputation.Strategy
    /// Training rows missing the feature, and holding it.
    public var missingInTraining: Int
    public var presentInTraining: Int
    /// Whether an indicator column follows the input's columns for this feature.
    public var indicator: Bool
    /// Where the spec declares the imputation.
    public var location: SourceLocation

    /// Whether the fill is usable: false when the strategy had nothing to compute from.
    public var isFitted: Bool { values.allSatisfy { !$0.isNaN } }

    /// A categorical feature's filled category, as the position of the hot column in its one-hot row.
    public var hotColumn: Int? { values.indices.max { values[$0] < values[$1] } }
  }

  public var fills: [Fill]
  /// The columns of the matrices it was fitted on and transforms.
  public var inputWidth: Int

  public init(fills: [Fill], inputWidth: Int) {
    self.fills = fills
    self.inputWidth = inputWidth
  }

  /// The features given an indicator column, in column order.
  public var indicated: [Fill] { fills.filter(\.indicator) }

  /// Input columns plus one per indicator.
  public var outputWidth: Int { inputWidth + indicated.count }

  /// The first feature whose fill could not be computed.
  public var unfitted: Fill? { fills.first { !$0.isFitted } }

  /// `x` with every missing cell of an imputed feature filled, and the indicator columns appended (1 where the
  /// feature was missing).
  /// - Parameter room: columns of capacity left unused after the rows (`Matrix.selecting(rows:roomForColumns:)`).
  public func transform(_ x: Matrix, roomForColumns room: Int = 0) -> Matrix {
    precondition(x.columns == inputWidth, "imputer fitted on \(inputWidth) columns, given \(x.columns)")
    let width = outputWidth
    var out = [Double]()
    out.reserveCapacity(x.rows * (width + room))
    out.append(contentsOf: repeatElement(0, count: x.rows * width))
    x.values.withUnsafeBufferPointer { input in
      for r in 0..<x.rows {
        for c in 0..<inputWidth { out[r * width + c] = input[r * inputWidth + c] }
      }
    }
    for r in 0..<x.rows {
      var indicator = inputWidth
      for fill in fills {
        let missing = x[r, fill.columns.lowerBound].isNaN
        if missing {
          for (offset, column) in fill.columns.enumerated() { out[r * width + column] = fill.values[offset] }
        }
        if fill.indicator {
          out[r * width + indicator] = missing ? 1 : 0
          indicator += 1
        }
      }
    }
    return Matrix(rows: x.rows, columns: width, values: out)
  }
}
