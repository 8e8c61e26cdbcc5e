/// The per-row arithmetic of a linear model's loss over a row of its design matrix: the margin x·u and the sums of
/// residual·x a block of rows adds to the gradient, each in feature order.
///
/// A loss loop generic over it is compiled once per width: `FewFeatureProducts` holds the sums in a register's
/// lanes and unrolls the feature loops for a count known when compiling (the flagship's four features);
/// `AnyFeatureProducts` keeps them in memory for any count. A sum kept in memory waits on its own store every row.
/// Both do the same operations in the same order, so the loss and gradient are the same to the bit.
protocol RowProducts {
  /// The number of features: a constant once compiled for `FewFeatureProducts`.
  var featureCount: Int { get }
  /// Sets every sum to zero.
  mutating func reset()
  /// `sum[j] += residual·row[j]` for every feature j.
  mutating func add(_ residual: Double, times row: UnsafePointer<Double>)
  /// `target[j] += sum[j]` for every feature j.
  func addSums(to target: UnsafeMutablePointer<Double>)
}

extension RowProducts {
  /// `start + Σ row[j]·u[j]`, added in feature order.
  @inline(__always) func margin(_ start: Double, _ row: UnsafePointer<Double>, _ u: UnsafePointer<Double>) -> Double {
    var margin = start
    for j in 0..<featureCount { margin += row[j] * u[j] }
    return margin
  }
}

/// A number of features known when compiling, one to eight (`FeatureCount`).
protocol FixedFeatureCount {
  static var value: Int { get }
}

/// The feature counts `FewFeatureProducts` is compiled for.
enum FeatureCount {
  enum One: FixedFeatureCount { static var value: Int { 1 } }
  enum Two: FixedFeatureCount { static var value: Int { 2 } }
  enum Three: FixedFeatureCount { static var value: Int { 3 } }
  enum Four: FixedFeatureCount { static var value: Int { 4 } }
  enum Five: FixedFeatureCount { static var value: Int { 5 } }
  enum Six: FixedFeatureCount { static var value: Int { 6 } }
  enum Seven: FixedFeatureCount { static var value: Int { 7 } }
  enum Eight: FixedFeatureCount { static var value: Int { 8 } }
}

/// `RowProducts` for exactly `Count.value` features, the sums in the lanes of a `SIMD8`.
struct FewFeatureProducts<Count: FixedFeatureCount>: RowProducts {
  private var sums = SIMD8<Double>()

  init() { precondition(Count.value <= 8, "at most eight features in a SIMD8") }

  @inline(__always) var featureCount: Int { Count.value }

  @inline(__always) mutating func reset() { sums = SIMD8() }

  @inline(__always) mutating func add(_ residual: Double, times row: UnsafePointer<Double>) {
    for j in 0..<Count.value { sums[j] += residual * row[j] }
  }

  @inline(__always) func addSums(to target: UnsafeMutablePointer<Double>) {
    for j in 0..<Count.value { target[j] += sums[j] }
  }
}

/// `RowProducts` for any number of features, the sums in a caller's buffer of `count` values.
struct AnyFeatureProducts: RowProducts {
  let sums: UnsafeMutablePointer<Double>
  let count: Int

  @inline(__always) var featureCount: Int { count }

  @inline(__always) mutating func reset() {
    for j in 0..<count { sums[j] = 0 }
  }

  @inline(__always) mutating func add(_ residual: Double, times row: UnsafePointer<Double>) {
    for j in 0..<count { sums[j] += residual * row[j] }
  }

  @inline(__always) func addSums(to target: UnsafeMutablePointer<Double>) {
    for j in 0..<count { target[j] += sums[j] }
  }
}
