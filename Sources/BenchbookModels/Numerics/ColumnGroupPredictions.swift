import BenchbookData

/// The least-squares prediction of each group of columns from all the other columns, fitted once on a set of rows:
/// what a feature (one column, or a category's one-hot columns) would be, given the rest of its row.
///
/// The leak audit holds a feature at this prediction to ask what the feature adds beyond what the others already
/// say about it: a size measured three ways (diamonds' `x`, `y` and `carat`) adds almost nothing once one of them is
/// known, while the same feature held at its mean turns every row into an impossible diamond.
///
/// One fit serves every group. On standardised columns with Gram matrix G (plus a small ridge, so that one-hot
/// columns, which sum to one, stay solvable), and P = G⁻¹, the regression of a group J on the other columns is
/// −P_JJ⁻¹·P_J,rest (the block-inverse identity): one d×d inverse, then one |J|×|J| inverse per group.
public struct ColumnGroupPredictions: Sendable {
  private let means: [Double]
  private let scales: [Double]
  private let groups: [[Int]]
  /// Per group, row-major |J|×d coefficients on the standardised columns (zero on the group's own columns).
  private let coefficients: [[Double]]

  /// The ridge added to the standardised columns' correlation matrix, relative to its unit diagonal.
  static let ridge = 1e-6

  /// Fits on `x`'s rows. `nil` when a value is missing or infinite, or `x` has no rows.
  public init?(_ x: Matrix, groups: [[Int]]) {
    let (n, d) = (x.rows, x.columns)
    guard n > 0, d > 0, x.values.allSatisfy(\.isFinite) else { return nil }
    // A constant column scales by 1: it is all zeros once centred, and predicts nothing.
    let spread = x.values.withUnsafeBufferPointer { ColumnSpread($0, rows: n, columns: d, centred: true) }
    let (means, scales) = (spread.center, spread.scale)
    var z = [Double](repeating: 0, count: n * d)
    for r in 0..<n {
      for c in 0..<d { z[r * d + c] = (x[r, c] - means[c]) / scales[c] }
    }
    var gram = LAPACK.gram(rowMajor: z, rows: n, columns: d, scale: 1 / Double(n))
    for c in 0..<d { gram[c * d + c] += Self.ridge }
    guard let inverse = Self.inverse(gram, order: d) else { return nil }
    var coefficients: [[Double]] = []
    for group in groups {
      let m = group.count
      var block = [Double](repeating: 0, count: m * m)
      for (a, i) in group.enumerated() {
        for (b, j) in group.enumerated() { block[a * m + b] = inverse[i * d + j] }
      }
      guard let blockInverse = Self.inverse(block, order: m) else { return nil }
      let own = Set(group)
      var rows = [Double](repeating: 0, count: m * d)
      for a in 0..<m {
        for c in 0..<d where !own.contains(c) {
          var sum = 0.0
          for b in 0..<m { sum += blockInverse[a * m + b] * inverse[group[b] * d + c] }
          rows[a * d + c] = -sum
        }
      }
      coefficients.append(rows)
    }
    self.means = means
    self.scales = scales
    self.groups = groups
    self.coefficients = coefficients
  }

  /// `x` with group `g`'s columns replaced, row by row, by their prediction from the row's other columns.
  public func replacing(group g: Int, in x: Matrix) -> Matrix {
    let d = means.count
    precondition(x.columns == d, "the rows have \(x.columns) columns, the fit \(d)")
    let group = groups[g]
    let weights = coefficients[g]
    var out = x
    var z = [Double](repeating: 0, count: d)
    for r in 0..<x.rows {
      for c in 0..<d { z[c] = (x[r, c] - means[c]) / scales[c] }
      for (a, column) in group.enumerated() {
        var sum = 0.0
        for c in 0..<d { sum += weights[a * d + c] * z[c] }
        out[r, column] = means[column] + scales[column] * sum
      }
    }
    return out
  }

  /// The inverse of a symmetric positive definite matrix from its eigen-decomposition, or `nil` when an eigenvalue
  /// is not positive.
  private static func inverse(_ matrix: [Double], order: Int) -> [Double]? {
    guard let (values, vectors) = try? LAPACK.symmetricEigen(matrix, order: order),
      values.allSatisfy({ $0 > 0 && $0.isFinite })
    else { return nil }
    var out = [Double](repeating: 0, count: order * order)
    for i in 0..<order {
      for j in i..<order {
        var sum = 0.0
        for k in 0..<order { sum += vectors[i * order + k] * vectors[j * order + k] / values[k] }
        out[i * order + j] = sum
        out[j * order + i] = sum
      }
    }
    return out
  }
}
