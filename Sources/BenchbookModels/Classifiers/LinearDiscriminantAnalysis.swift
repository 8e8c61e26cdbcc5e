import BenchbookData
import Foundation

/// scikit-learn's `LinearDiscriminantAnalysis()` with its default `svd` solver.
///
/// Gaussian classes sharing one covariance matrix. The fit follows scikit-learn
/// 1.9.1's `_solve_svd` step by step, so coefficients agree to rounding: the
/// within-class scatter is never formed, only the SVD of the scaled, within-class
/// centred data, which drops directions of (near-)zero variance instead of
/// inverting a singular matrix.
public struct LinearDiscriminantAnalysis: RowSubsetFitting, Hashable, Codable {
  /// Singular values of the scaled centred data at or below this are treated as zero (rank deficiency).
  public var tol: Double
  /// Only `"svd"` is implemented.
  public var solver: String

  public init(tol: Double = 1e-4, solver: String = "svd") {
    self.tol = tol
    self.solver = solver
  }

  /// Reads `tol` (>= 0) and `solver` (only `svd`).
  public init(settings: inout SettingsReader) throws(SettingError) {
    tol = try settings.double("tol", default: 1e-4, requirement: ">= 0") { $0 >= 0 }
    solver = try settings.choice("solver", options: ["svd"], default: "svd")
    try settings.finish(known: Self.settingsSchema.flatMap(\.spellings))
  }

  /// Nothing to search: the rank tolerance and the solver do not change a well-posed fit.
  public static let settingsSchema: [SettingDescriptor] = [
    SettingDescriptor("tol", type: .number, default: .double(1e-4), searchable: false),
    SettingDescriptor("solver", type: .word(["svd"]), default: .string("svd"), searchable: false),
  ]

  public var parameters: [String: ParameterValue] {
    ["tol": .double(tol), "solver": .string(solver)]
  }

  /// - Complexity: O(n·d²) for the SVD of the n×d centred data, plus O(n·d) passes.
  public func fit(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError)
    -> FittedLinearDiscriminantAnalysis
  {
    precondition(labels.count == x.rows, "one label per row")
    return try fit(RowSubset(all: consume x, labels: labels), classCount: classCount)
  }

  /// - Complexity: as `fit(_:labels:classCount:)`; the rows are read where they are, and the only copy of them
  ///   is the centred one the SVD takes.
  /// - Parameter rows: consumed; handed the last reference to a gathered matrix (every row, in order), the fit
  ///   centres and transposes it in place; otherwise the rows are freed once copied centred, before the SVD.
  public func fit(_ rows: consuming RowSubset, classCount: Int) throws(ModelError)
    -> FittedLinearDiscriminantAnalysis
  {
    precondition(classCount >= 2, "LDA needs at least two classes")
    guard solver == "svd" else { throw ModelError("LDA solver '\(solver)' is not implemented; use svd") }
    let n = rows.count
    let d = rows.matrix.columns
    let k = classCount
    guard n > k else {
      throw ModelError("LDA needs more training rows (\(n)) than classes (\(k))")
    }
    guard d > 0 else { throw ModelError("LDA needs at least one feature") }

    // Class counts, priors and means (rows summed in order, then divided, as scikit-learn does). The rows are
    // read a run at a time, the sums behind pointers, so the loop inside a run is as tight as over a matrix.
    var finite = true
    var counts = [Int](repeating: 0, count: k)
    var means = [Double](repeating: 0, count: k * d)
    rows.withValuesAndLabels { values, labels in
      rows.forEachRun { run in
        for r in run where finite {
          for c in 0..<d where !values[r * d + c].isFinite { finite = false }
        }
      }
      counts.withUnsafeMutableBufferPointer { counts in
        means.withUnsafeMutableBufferPointer { means in
          rows.forEachRun { run in
            for r in run {
              let label = labels[r]
              precondition(label >= 0 && label < k, "label \(label) outside 0..<\(k)")
              counts[label] += 1
              for c in 0..<d { means[label * d + c] += values[r * d + c] }
            }
          }
        }
      }
    }
    guard finite else {
      throw ModelError("LDA cannot fit features that are missing or infinite")
    }
    precondition(counts.reduce(0, +) == n, "the subset's runs visit \(counts.reduce(0, +)) rows, not \(n)")
    if let missing = counts.firstIndex(of: 0) {
      throw ModelError("class \(missing) has no training rows")
    }
    for label in 0..<k {
      for c in 0..<d { means[label * d + c] /= Double(counts[label]) }
    }
    let priors = counts.map { Double($0) / Double(n) }
    var overallMean = [Double](repeating: 0, count: d)
    for label in 0..<k {
      for c in 0..<d { overallMean[c] += priors[label] * means[label * d + c] }
    }

    // Within-class centred data, column-major for LAPACK; its population standard deviation per column.
    var centred: [Double]
    if rows.isEveryRow {
      // Handed the last reference to its matrix, the fit centres the rows where they are and transposes them
      // there: the same differences, moved, and no second copy.
      let labels = rows.labelOfRow
      centred = rows.matrix.values
      _ = consume rows
      labels.withUnsafeBufferPointer { labels in
        means.withUnsafeBufferPointer { means in
          centred.withUnsafeMutableBufferPointer { values in
            for r in 0..<n {
              let base = labels[r] * d
              for c in 0..<d { values[r * d + c] = values[r * d + c] - means[base + c] }
            }
            InPlaceTranspose.rowMajorToColumnMajor(values, rows: n, columns: d)
          }
        }
      }
    } else {
      centred = [Double](repeating: 0, count: n * d)
      rows.withValuesAndLabels { values, labels in
        means.withUnsafeBufferPointer { means in
          centred.withUnsafeMutableBufferPointer { out in
            var p = 0
            rows.forEachRun { run in
              for r in run {
                let base = labels[r] * d
                for c in 0..<d { out[c * n + p] = values[r * d + c] - means[base + c] }
                p += 1
              }
            }
          }
        }
      }
      _ = consume rows
    }
    var std = [Double](repeating: 1, count: d)
    centred.withUnsafeBufferPointer { values in
      for c in 0..<d {
        var sum = 0.0
        for r in 0..<n { sum += values[c * n + r] }
        let mean = sum / Double(n)
        var squares = 0.0
        for r in 0..<n {
          let deviation = values[c * n + r] - mean
          squares += deviation * deviation
        }
        let sd = (squares / Double(n)).squareRoot()
        std[c] = sd == 0 ? 1 : sd
      }
    }
    // scikit-learn 1.9.1 scales by sqrt(1/n): the maximum-likelihood covariance. Older
    // releases used 1/(n − K) (unbiased); 1.9.1's discriminants are n/(n − K) times theirs.
    let rootFactor = (1 / Double(n)).squareRoot()
    centred.withUnsafeMutableBufferPointer { values in
      for c in 0..<d {
        for r in 0..<n { values[c * n + r] = rootFactor * (values[c * n + r] / std[c]) }
      }
    }
    let within = try LAPACK.singularValueDecomposition(columnMajor: &centred, rows: n, columns: d)
    let rank = within.values.prefix { $0 > tol }.count
    guard rank > 0 else {
      throw ModelError("LDA: the features have no within-class variance above tol \(tol)")
    }
    // scalings (d×rank): Vᵀ rows divided by std, then each column by its singular value.
    var scalings = [Double](repeating: 0, count: d * rank)
    for j in 0..<rank {
      for c in 0..<d {
        scalings[c * rank + j] = (within.rightVectorsTransposed[j * d + c] / std[c]) / within.values[j]
      }
    }

    // Between-class scatter of the weighted, centred class means in the whitened space.
    let classFactor = 1 / Double(k - 1)
    var centredMeans = [Double](repeating: 0, count: k * d)
    for label in 0..<k {
      for c in 0..<d { centredMeans[label * d + c] = means[label * d + c] - overallMean[c] }
    }
    var between = [Double](repeating: 0, count: k * rank)  // column-major k×rank
    for label in 0..<k {
      let weight = (Double(n) * priors[label] * classFactor).squareRoot()
      for j in 0..<rank {
        var sum = 0.0
        for c in 0..<d { sum += (weight * centredMeans[label * d + c]) * scalings[c * rank + j] }
        between[j * k + label] = sum
      }
    }
    let betweenSVD = try LAPACK.singularValueDecomposition(columnMajor: &between, rows: k, columns: rank)
    let largest = betweenSVD.values.first ?? 0
    let components = betweenSVD.values.prefix { $0 > tol * largest }.count

    // Final scalings (d×components) = scalings · V[:, :components].
    var projection = [Double](repeating: 0, count: d * components)
    for c in 0..<d {
      for m in 0..<components {
        var sum = 0.0
        for j in 0..<rank { sum += scalings[c * rank + j] * betweenSVD.rightVectorsTransposed[m * rank + j] }
        projection[c * components + m] = sum
      }
    }
    // Class centroids in discriminant space, then back to feature space.
    var coefficients = [Double](repeating: 0, count: k * d)
    var intercepts = [Double](repeating: 0, count: k)
    for label in 0..<k {
      var reduced = [Double](repeating: 0, count: components)
      for m in 0..<components {
        var sum = 0.0
        for c in 0..<d { sum += centredMeans[label * d + c] * projection[c * components + m] }
        reduced[m] = sum
      }
      var squares = 0.0
      for m in 0..<components { squares += reduced[m] * reduced[m] }
      intercepts[label] = -0.5 * squares + log(priors[label])
      for c in 0..<d {
        var sum = 0.0
        for m in 0..<components { sum += reduced[m] * projection[c * components + m] }
        coefficients[label * d + c] = sum
      }
      var shift = 0.0
      for c in 0..<d { shift += overallMean[c] * coefficients[label * d + c] }
      intercepts[label] -= shift
    }

    let classMeans = Matrix(rows: k, columns: d, values: means)
    if k == 2 {
      // scikit-learn keeps a single discriminant for two classes: class 1 minus class 0.
      let row = (0..<d).map { coefficients[d + $0] - coefficients[$0] }
      return FittedLinearDiscriminantAnalysis(
        coefficients: Matrix(rows: 1, columns: d, values: row), intercepts: [intercepts[1] - intercepts[0]],
        classMeans: classMeans, priors: priors, rank: components)
    }
    return FittedLinearDiscriminantAnalysis(
      coefficients: Matrix(rows: k, columns: d, values: coefficients), intercepts: intercepts,
      classMeans: classMeans, priors: priors, rank: components)
  }
}

/// A fitted LDA: linear decision functions, turned into probabilities by a sigmoid (two classes) or softmax.
public struct FittedLinearDiscriminantAnalysis: FittedClassifier, Equatable {
  /// One row per class (K×d), or a single row (1×d) for two classes: the log-odds of class 1 over class 0.
  public let coefficients: Matrix
  /// One per row of `coefficients`.
  public let intercepts: [Double]
  /// Per-class feature means (K×d), as estimated from the training rows.
  public let classMeans: Matrix
  /// Training class frequencies.
  public let priors: [Double]
  /// Number of discriminant directions kept (at most min(K − 1, d)).
  public let rank: Int

  public var classCount: Int { priors.count }

  /// The coefficients and intercepts that predictions use.
  public var parameterCount: Int { coefficients.values.count + intercepts.count }

  /// scikit-learn's `decision_function`: X·coefficientsᵀ + intercepts, one column per row of `coefficients`.
  public func decisionFunction(_ x: Matrix) -> Matrix {
    LinearScores.compute(x, coefficients: coefficients, intercepts: intercepts)
  }

  public func predictProbabilities(_ x: Matrix) -> Matrix {
    LinearScores.probabilities(fromDecision: decisionFunction(x), classCount: classCount)
  }
}

extension FittedLinearDiscriminantAnalysis {
  /// Its linear discriminants, which come from class densities rather than the log-loss.
  public func exportForm() throws(ExportFormError) -> ExportForm {
    .linear(LinearForm(coefficients: coefficients, intercepts: intercepts, minimisesLogLoss: false))
  }
}
