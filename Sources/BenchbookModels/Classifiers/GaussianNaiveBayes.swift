import BenchbookData
import Foundation

/// scikit-learn's `GaussianNB()`: features independent and normal within each class.
///
/// Every variance is inflated by `var_smoothing` times the largest feature
/// variance of the training rows, so a feature that is constant within a class
/// does not make the likelihood infinite.
public struct GaussianNaiveBayes: RowSubsetFitting, Hashable, Codable {
  /// Share of the largest feature variance added to every variance.
  public var varSmoothing: Double

  public init(varSmoothing: Double = 1e-9) {
    self.varSmoothing = varSmoothing
  }

  /// Reads `var_smoothing` (>= 0).
  public init(settings: inout SettingsReader) throws(SettingError) {
    varSmoothing = try settings.double("var_smoothing", default: 1e-9, requirement: ">= 0") { $0 >= 0 }
    try settings.finish(known: Self.settingsSchema.flatMap(\.spellings))
  }

  public static let settingsSchema: [SettingDescriptor] = [
    SettingDescriptor("var_smoothing", type: .number, default: .double(1e-9), searchable: true)
  ]

  public var parameters: [String: ParameterValue] { ["var_smoothing": .double(varSmoothing)] }

  /// One pass of sufficient statistics for every `var_smoothing`: the smoothing
  /// is added last, so each configuration's model is the one its own fit gives.
  public static func sharedFits(_ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [FittedGaussianNaiveBayes]
  {
    let statistics = try Statistics(RowSubset(all: x, labels: labels), classCount: classCount)
    var out: [FittedGaussianNaiveBayes] = []
    for configuration in configurations {
      out.append(try statistics.model(varSmoothing: configuration.varSmoothing))
    }
    return out
  }

  /// - Complexity: O(n·d), three passes over the rows.
  public func fit(_ x: Matrix, labels: [Int], classCount: Int) throws(ModelError) -> FittedGaussianNaiveBayes {
    precondition(labels.count == x.rows, "one label per row")
    return try fit(RowSubset(all: x, labels: labels), classCount: classCount)
  }

  /// - Complexity: O(n·d), three passes over the rows where they are.
  public func fit(_ rows: consuming RowSubset, classCount: Int) throws(ModelError) -> FittedGaussianNaiveBayes {
    try Statistics(rows, classCount: classCount).model(varSmoothing: varSmoothing)
  }

  /// Per-class means and unsmoothed population variances, and the largest feature variance.
  struct Statistics {
    let theta: [Double]
    let variance: [Double]
    let counts: [Int]
    let largestVariance: Double
    let n: Int
    let d: Int
    let k: Int

    init(_ rows: RowSubset, classCount: Int) throws(ModelError) {
      let n = rows.count
      let d = rows.matrix.columns
      let k = classCount
      guard n > 0 else { throw ModelError("Gaussian naive Bayes needs training rows") }

      // Each pass runs over the rows a run at a time; its sums live behind pointers, so that the loop inside a
      // run is as tight as over a gathered matrix.
      var finite = true
      var counts = [Int](repeating: 0, count: k)
      var theta = [Double](repeating: 0, count: k * d)
      var overallMean = [Double](repeating: 0, count: d)
      rows.withValuesAndLabels { values, labels in
        rows.forEachRun { run in
          for r in run where finite {
            for c in 0..<d where !values[r * d + c].isFinite { finite = false }
          }
        }
        counts.withUnsafeMutableBufferPointer { counts in
          theta.withUnsafeMutableBufferPointer { theta in
            overallMean.withUnsafeMutableBufferPointer { overallMean in
              rows.forEachRun { run in
                for r in run {
                  let label = labels[r]
                  precondition(label >= 0 && label < k, "label \(label) outside 0..<\(k)")
                  counts[label] += 1
                  for c in 0..<d {
                    let value = values[r * d + c]
                    theta[label * d + c] += value
                    overallMean[c] += value
                  }
                }
              }
            }
          }
        }
      }
      guard finite else {
        throw ModelError("Gaussian naive Bayes cannot fit features that are missing or infinite")
      }
      precondition(counts.reduce(0, +) == n, "the subset's runs visit \(counts.reduce(0, +)) rows, not \(n)")
      if let missing = counts.firstIndex(of: 0) {
        throw ModelError("class \(missing) has no training rows")
      }
      for label in 0..<k {
        for c in 0..<d { theta[label * d + c] /= Double(counts[label]) }
      }
      for c in 0..<d { overallMean[c] /= Double(n) }

      // Population variances: per class, and of each whole column for the smoothing.
      var variance = [Double](repeating: 0, count: k * d)
      var overallVariance = [Double](repeating: 0, count: d)
      rows.withValuesAndLabels { values, labels in
        theta.withUnsafeBufferPointer { theta in
          overallMean.withUnsafeBufferPointer { overallMean in
            variance.withUnsafeMutableBufferPointer { variance in
              overallVariance.withUnsafeMutableBufferPointer { overallVariance in
                rows.forEachRun { run in
                  for r in run {
                    let base = labels[r] * d
                    for c in 0..<d {
                      let value = values[r * d + c]
                      let deviation = value - theta[base + c]
                      variance[base + c] += deviation * deviation
                      let overallDeviation = value - overallMean[c]
                      overallVariance[c] += overallDeviation * overallDeviation
                    }
                  }
                }
              }
            }
          }
        }
      }
      var largestVariance = 0.0
      for c in 0..<d { largestVariance = max(largestVariance, overallVariance[c] / Double(n)) }
      for label in 0..<k {
        for c in 0..<d { variance[label * d + c] = variance[label * d + c] / Double(counts[label]) }
      }
      self.theta = theta
      self.variance = variance
      self.counts = counts
      self.largestVariance = largestVariance
      self.n = n
      self.d = d
      self.k = k
    }

    /// The fitted model for one `var_smoothing`.
    func model(varSmoothing: Double) throws(ModelError) -> FittedGaussianNaiveBayes {
      let epsilon = varSmoothing * largestVariance
      let variance = self.variance.map { $0 + epsilon }
      if let zero = variance.firstIndex(where: { !($0 > 0) }) {
        throw ModelError(
          "Gaussian naive Bayes: feature \(zero % max(d, 1)) has zero variance in class \(zero / max(d, 1)) "
            + "and var_smoothing adds nothing (every feature is constant or var_smoothing is 0)")
      }
      return FittedGaussianNaiveBayes(
        theta: Matrix(rows: k, columns: d, values: theta), variance: Matrix(rows: k, columns: d, values: variance),
        classPriors: counts.map { Double($0) / Double(n) }, epsilon: epsilon)
    }
  }
}

/// A fitted Gaussian naive Bayes model: per-class means, smoothed variances and priors.
public struct FittedGaussianNaiveBayes: FittedClassifier, Equatable {
  /// Per-class feature means (K×d), scikit-learn's `theta_`.
  public let theta: Matrix
  /// Per-class feature variances with `epsilon` added (K×d), scikit-learn's `var_`.
  public let variance: Matrix
  /// Training class frequencies, scikit-learn's `class_prior_`.
  public let classPriors: [Double]
  /// The amount added to every variance, scikit-learn's `epsilon_`.
  public let epsilon: Double

  public var classCount: Int { classPriors.count }

  public var parameterCount: Int { theta.values.count + variance.values.count + classPriors.count }

  /// log P(class) + log p(x | class) per row and class (scikit-learn's `_joint_log_likelihood`).
  public func jointLogLikelihood(_ x: Matrix) -> Matrix {
    precondition(x.columns == theta.columns, "model fitted on \(theta.columns) features, given \(x.columns)")
    let d = theta.columns
    let k = classCount
    // The normalising constant of each class's density does not depend on x.
    var constants = [Double](repeating: 0, count: k)
    for label in 0..<k {
      var sum = 0.0
      for c in 0..<d { sum += log(2 * Double.pi * variance.values[label * d + c]) }
      constants[label] = log(classPriors[label]) + -0.5 * sum
    }
    var out = Matrix(rows: x.rows, columns: k)
    x.values.withUnsafeBufferPointer { values in
      theta.values.withUnsafeBufferPointer { means in
        variance.values.withUnsafeBufferPointer { variances in
          out.values.withUnsafeMutableBufferPointer { result in
            for r in 0..<x.rows {
              for label in 0..<k {
                var sum = 0.0
                for c in 0..<d {
                  let deviation = values[r * d + c] - means[label * d + c]
                  sum += (deviation * deviation) / variances[label * d + c]
                }
                result[r * k + label] = constants[label] - 0.5 * sum
              }
            }
          }
        }
      }
    }
    return out
  }

  /// Normalises the joint log-likelihood with log-sum-exp, then exponentiates.
  ///
  /// The log-sum-exp is scikit-learn's: the maxima are taken out of the sum and
  /// added back through `log1p`, which keeps a dominant class's log-probability
  /// accurate to well below machine epsilon.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    var out = jointLogLikelihood(x)
    let k = classCount
    for r in 0..<x.rows {
      let base = r * k
      var largest = -Double.infinity
      for label in 0..<k { largest = max(largest, out.values[base + label]) }
      let shift = largest.isFinite ? largest : 0
      var ties = 0.0
      var rest = 0.0
      for label in 0..<k {
        let value = out.values[base + label]
        if value == largest { ties += 1 } else { rest += exp(value - shift) }
      }
      if rest != 0 { rest /= ties }
      let logNormaliser = log1p(rest) + log(ties) + largest
      for label in 0..<k { out.values[base + label] = exp(out.values[base + label] - logNormaliser) }
    }
    return out
  }
}

extension FittedGaussianNaiveBayes {
  public func exportForm() throws(ExportFormError) -> ExportForm {
    .gaussian(GaussianForm(means: theta, variances: variance, priors: classPriors))
  }
}
