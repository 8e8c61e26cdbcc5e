import BenchbookData
import Foundation

/// Linear decision functions and their probabilities, shared by logistic regression and LDA.
///
/// Both follow scikit-learn's `predict_proba` exactly: two classes store one row
/// w, and P(class 1) = 1 / (1 + exp(−(w·x + b))), P(class 0) = 1 − P(class 1);
/// more classes take a softmax with the row maximum subtracted first.
enum LinearScores {
  /// X·Wᵀ + b: one column per row of `coefficients`.
  /// - Complexity: O(rows × features × coefficient rows).
  static func compute(_ x: Matrix, coefficients: Matrix, intercepts: [Double]) -> Matrix {
    precondition(
      x.columns == coefficients.columns, "model fitted on \(coefficients.columns) features, given \(x.columns)")
    let d = x.columns
    let outputs = coefficients.rows
    var scores = [Double](repeating: 0, count: x.rows * outputs)
    x.values.withUnsafeBufferPointer { values in
      coefficients.values.withUnsafeBufferPointer { weights in
        scores.withUnsafeMutableBufferPointer { out in
          for r in 0..<x.rows {
            let row = r * d
            for k in 0..<outputs {
              var sum = 0.0
              for c in 0..<d { sum += values[row + c] * weights[k * d + c] }
              out[r * outputs + k] = sum + intercepts[k]
            }
          }
        }
      }
    }
    return Matrix(rows: x.rows, columns: outputs, values: scores)
  }

  /// Sigmoid of a single decision column (two classes) or row-wise softmax (more).
  static func probabilities(fromDecision decision: Matrix, classCount: Int) -> Matrix {
    var out = Matrix(rows: decision.rows, columns: classCount)
    if classCount == 2 && decision.columns == 1 {
      for r in 0..<decision.rows {
        let positive = 1 / (1 + exp(-decision.values[r]))
        out.values[2 * r] = 1 - positive
        out.values[2 * r + 1] = positive
      }
      return out
    }
    precondition(decision.columns == classCount, "one decision column per class")
    for r in 0..<decision.rows {
      let base = r * classCount
      var largest = -Double.infinity
      for k in 0..<classCount { largest = max(largest, decision.values[base + k]) }
      var sum = 0.0
      for k in 0..<classCount {
        let e = exp(decision.values[base + k] - largest)
        out.values[base + k] = e
        sum += e
      }
      for k in 0..<classCount { out.values[base + k] /= sum }
    }
    return out
  }
}
