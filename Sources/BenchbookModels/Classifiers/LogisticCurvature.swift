import BenchbookData
import Foundation

/// Logistic regression's objective for `NewtonCG`: the mean log-loss plus penalty in standardised coordinates,
/// its gradient, products with its Hessian, and the Hessian's diagonal, each from BLAS products over blocks of
/// the training rows.
///
/// Coordinates: each feature centred (when an intercept absorbs the shift) and divided by its spread, z = (x −
/// μ)/s, so the weights are u = s·w and the penalty ½·‖w‖²/(C·n) is ½·Σ (u/s)²/(C·n), diagonal. (L-BFGS also
/// rotates to the Hessian's eigenvectors at zero weights; Newton's steps need no such help, and in unrotated
/// coordinates the Hessian's diagonal preconditions the conjugate gradients: a rare category's column keeps its
/// own small curvature.)
///
/// With scores S = Z·Uᵀ + b (one row of U per output) and probabilities P, the gradient is (P − Y)ᵀ·Z / n plus
/// the penalty's, and the Hessian times a direction V is Qᵀ·Z / n plus the penalty's, where T = Z·Vᵀ + c and,
/// row by row, Qₖ = Pₖ·(Tₖ − Σⱼ Pⱼ·Tⱼ) (softmax) or P·(1 − P)·T (sigmoid): O(n·d·K) a product, like a gradient.
/// Both products of a block of rows run while the block is in cache, so each reads the rows once. Softmax is
/// unchanged when every class's parameters shift together, and the penalised optimum has them summing to zero
/// over the classes; gradients, products and preconditioned directions are kept in that subspace, where the
/// Hessian is positive definite and the unpenalised intercepts stay centred.
final class LogisticCurvature: NewtonObjective {
  /// The standardised rows, rows×width: the features, then a column of ones when an intercept is fitted.
  private let design: [Double]
  private let labels: [Int]
  let rows: Int
  let features: Int
  /// 1 (sigmoid) or the number of classes (softmax).
  let outputs: Int
  let fitIntercept: Bool
  /// 1/(C·n): the penalty's weight in the mean objective (0 without penalty).
  let penaltyPerRow: Double
  /// μ: column means when an intercept absorbs the shift, else zero.
  let center: [Double]
  /// s: column spreads (1 where a column is constant).
  let scale: [Double]
  /// Parameters per output: the weights, then the intercept when fitted.
  let width: Int

  /// Probabilities at the current point and at the trial, rows×outputs.
  private var current: [Double]
  private var trial: [Double]
  /// A block's scores, residuals or directions' products, blockRows×outputs.
  private var blockScratch: [Double]
  /// A block's squared rows, for the diagonal.
  private var blockSquares: [Double]
  /// The preconditioner: the Hessian's diagonal at the current point.
  private var diagonal: [Double]

  /// Rows per block: a block of a few hundred kB stays in a core's L2 cache between its two products.
  let blockRows: Int

  /// - Parameter x: consumed; handed the last reference, its storage becomes the standardised rows (with the
  ///   intercept's column when it has room for it, `Matrix.hasRoom(forColumns:)`).
  init(
    _ x: consuming Matrix, labels: [Int], outputs: Int, fitIntercept: Bool, penaltyPerRow: Double
  ) {
    let n = x.rows
    let d = x.columns
    let (center, scale) = x.values.withUnsafeBufferPointer { values in
      let spread = ColumnSpread(values, rows: n, columns: d, centred: fitIntercept)
      return (spread.center, spread.scale)
    }
    let width = d + (fitIntercept ? 1 : 0)
    var design: [Double]
    if fitIntercept && x.hasRoom(forColumns: 1) {
      // A column of ones after the features, written into the room the rows were gathered with (the fit holds
      // their only reference): each row moves to its wider place, last row first, so that no value is
      // overwritten before it is read (row r's values move from r·d to r·(d + 1), never left).
      design = x.values
      _ = consume x
      design.append(contentsOf: repeatElement(1, count: n))
      design.withUnsafeMutableBufferPointer { out in
        for r in stride(from: n - 1, through: 0, by: -1) {
          out[r * width + d] = 1
          for c in stride(from: d - 1, through: 0, by: -1) {
            out[r * width + c] = (out[r * d + c] - center[c]) / scale[c]
          }
        }
      }
    } else if fitIntercept {
      // A column of ones after the features: the intercepts join the weights in every product.
      design = [Double](repeating: 1, count: n * width)
      x.values.withUnsafeBufferPointer { values in
        design.withUnsafeMutableBufferPointer { out in
          for r in 0..<n {
            for c in 0..<d { out[r * width + c] = (values[r * d + c] - center[c]) / scale[c] }
          }
        }
      }
      _ = consume x
    } else {
      design = x.values
      _ = consume x
      design.withUnsafeMutableBufferPointer { out in
        for r in 0..<n {
          for c in 0..<d { out[r * d + c] = out[r * d + c] / scale[c] }
        }
      }
    }
    self.design = design
    self.labels = labels
    self.rows = n
    self.features = d
    self.outputs = outputs
    self.fitIntercept = fitIntercept
    self.penaltyPerRow = penaltyPerRow
    self.center = center
    self.scale = scale
    self.width = width
    blockRows = max(16, min(1024, 32_768 / width))
    current = [Double](repeating: 0, count: n * outputs)
    trial = current
    blockScratch = [Double](repeating: 0, count: blockRows * outputs)
    blockSquares = [Double](repeating: 0, count: blockRows * width)
    diagonal = [Double](repeating: 1, count: width * outputs)
  }

  var parameterCount: Int { width * outputs }

  /// The solver's parameters for original weights (`outputs`×features, row-major) and intercepts: u = s·w and,
  /// with an intercept, c = b + w·μ (the margin w·(x − μ) + c is unchanged); centred over the classes.
  func parameters(coefficients: [Double], intercepts: [Double]) -> [Double] {
    var out = [Double](repeating: 0, count: parameterCount)
    for k in 0..<outputs {
      var shift = 0.0
      for j in 0..<features {
        out[k * width + j] = coefficients[k * features + j] * scale[j]
        shift += coefficients[k * features + j] * center[j]
      }
      if fitIntercept { out[k * width + features] = intercepts[k] + shift }
    }
    centre(&out)
    return out
  }

  /// Original weights and intercepts of solver parameters: w = u/s, b = c − w·μ.
  func original(_ parameters: [Double]) -> (coefficients: [Double], intercepts: [Double]) {
    var coefficients = [Double](repeating: 0, count: outputs * features)
    var intercepts = [Double](repeating: 0, count: outputs)
    for k in 0..<outputs {
      var shift = 0.0
      for j in 0..<features {
        let w = parameters[k * width + j] / scale[j]
        coefficients[k * features + j] = w
        shift += w * center[j]
      }
      intercepts[k] = fitIntercept ? parameters[k * width + features] - shift : 0
    }
    return (coefficients, intercepts)
  }

  /// Moves parameters (or a direction) into the subspace where the classes' parameters sum to zero (softmax
  /// only): the same probabilities, and the penalised optimum's gauge.
  private func centre(_ parameters: inout [Double]) {
    Self.centre(&parameters, outputs: outputs, width: width)
  }

  /// `centre` for any objective laid out as `outputs` blocks of `width` parameters (`GroupedLogistic`'s too).
  /// Each parameter's mean over the classes is summed class by class in turn; the classes' blocks are walked one
  /// after another, so the sums of all parameters advance side by side along contiguous memory.
  static func centre(_ parameters: inout [Double], outputs: Int, width: Int) {
    guard outputs > 1 else { return }
    Swift.precondition(parameters.count == outputs * width, "outputs blocks of width parameters")
    withUnsafeTemporaryAllocation(of: Double.self, capacity: width) { means in
      let means = means.baseAddress!
      means.initialize(repeating: 0, count: width)
      parameters.withUnsafeMutableBufferPointer { parameters in
        let parameters = parameters.baseAddress!
        for k in 0..<outputs {
          let block = parameters + k * width
          for j in 0..<width { means[j] += block[j] }
        }
        for j in 0..<width { means[j] /= Double(outputs) }
        for k in 0..<outputs {
          let block = parameters + k * width
          for j in 0..<width { block[j] -= means[j] }
        }
      }
    }
  }

  /// For each block of rows: its linear functions of `parameters` (Z_b·Vᵀ + c) in `blockScratch`, handed to
  /// `transform` (which rewrites them as the block's residuals, or weighted products), then accumulated as
  /// Q_bᵀ·[Z_b, 1] / n into `out`, which ends with the penalty's term added and centred over the classes.
  private func pass(
    _ parameters: [Double], into out: inout [Double],
    _ transform: (_ block: Range<Int>, _ values: UnsafeMutableBufferPointer<Double>) -> Void
  ) {
    let n = Double(rows)
    for i in out.indices { out[i] = 0 }
    parameters.withUnsafeBufferPointer { u in
      design.withUnsafeBufferPointer { z in
        blockScratch.withUnsafeMutableBufferPointer { s in
          out.withUnsafeMutableBufferPointer { g in
            var start = 0
            while start < rows {
              let count = min(blockRows, rows - start)
              let block = z.baseAddress! + start * width
              if outputs == 1 {
                // Matrix-vector products: a product with one column would go through a slow path of dgemm.
                LAPACK.multiply(block, rows: count, columns: width, vector: u.baseAddress!, into: s.baseAddress!)
              } else {
                LAPACK.multiply(
                  block, rows: count, inner: width, u.baseAddress!, columns: outputs, transposedStride: width,
                  into: s.baseAddress!)
              }
              transform(start..<(start + count), UnsafeMutableBufferPointer(rebasing: s[0..<(count * outputs)]))
              if outputs == 1 {
                LAPACK.accumulateTransposed(
                  block, rows: count, columns: width, vector: s.baseAddress!, scale: 1 / n, into: g.baseAddress!)
              } else {
                LAPACK.multiplyTransposedLeft(
                  s.baseAddress!, rows: count, columns: outputs, block, inner: width, scale: 1 / n,
                  into: g.baseAddress!, stride: width, accumulate: true)
              }
              start += count
            }
          }
        }
      }
    }
    if penaltyPerRow > 0 {
      for k in 0..<outputs {
        for j in 0..<features {
          out[k * width + j] += penaltyPerRow * parameters[k * width + j] / (scale[j] * scale[j])
        }
      }
    }
    centre(&out)
  }

  func evaluate(_ parameters: [Double], gradient: inout [Double]) -> Double {
    var total = 0.0
    let outputs = outputs
    trial.withUnsafeMutableBufferPointer { p in
      labels.withUnsafeBufferPointer { y in
        pass(parameters, into: &gradient) { block, s in
          var sum = 0.0
          if outputs == 1 {
            for (i, row) in block.enumerated() {
              let margin = s[i]
              let positive = y[row] == 1
              // log(1 + exp(∓m)) = max(∓m, 0) + log1p(e), e = exp(−|m|); p and 1 − p without cancellation.
              let e = exp(-abs(margin))
              sum += max(positive ? -margin : margin, 0) + log1p(e)
              let q = 1 / (1 + e)
              let probability = margin >= 0 ? q : e * q
              p[row] = probability
              s[i] = positive ? -(margin >= 0 ? e * q : q) : probability
            }
          } else {
            for (i, row) in block.enumerated() {
              let scores = s.baseAddress! + i * outputs
              var largest = -Double.infinity
              for c in 0..<outputs { largest = max(largest, scores[c]) }
              let truth = scores[y[row]]
              var exponentials = 0.0
              for c in 0..<outputs {
                let e = exp(scores[c] - largest)
                scores[c] = e
                exponentials += e
              }
              sum += (largest - truth) + log(exponentials)
              let inverse = 1 / exponentials
              for c in 0..<outputs {
                let probability = scores[c] * inverse
                p[row * outputs + c] = probability
                scores[c] = probability - (c == y[row] ? 1 : 0)
              }
            }
          }
          total += sum
        }
      }
    }
    let loss = total / Double(rows)
    guard penaltyPerRow > 0 else { return loss }
    var squares = 0.0
    for k in 0..<outputs {
      for j in 0..<features {
        let w = parameters[k * width + j] / scale[j]
        squares += w * w
      }
    }
    return loss + 0.5 * penaltyPerRow * squares
  }

  func acceptTrial() { swap(&current, &trial) }

  func hessianProduct(_ direction: [Double], into out: inout [Double]) {
    let outputs = outputs
    current.withUnsafeBufferPointer { p in
      pass(direction, into: &out) { block, t in
        if outputs == 1 {
          for (i, row) in block.enumerated() { t[i] *= p[row] * (1 - p[row]) }
        } else {
          for (i, row) in block.enumerated() {
            let probabilities = p.baseAddress! + row * outputs
            let values = t.baseAddress! + i * outputs
            // Four running sums: a single one waits on each addition in turn.
            var sums: (Double, Double, Double, Double) = (0, 0, 0, 0)
            var c = 0
            while c + 4 <= outputs {
              sums.0 += probabilities[c] * values[c]
              sums.1 += probabilities[c + 1] * values[c + 1]
              sums.2 += probabilities[c + 2] * values[c + 2]
              sums.3 += probabilities[c + 3] * values[c + 3]
              c += 4
            }
            while c < outputs {
              sums.0 += probabilities[c] * values[c]
              c += 1
            }
            let mean = (sums.0 + sums.1) + (sums.2 + sums.3)
            for c in 0..<outputs { values[c] = probabilities[c] * (values[c] - mean) }
          }
        }
      }
    }
  }

  /// Sets the preconditioner to the Hessian's diagonal at the current point: Σᵢ pᵢₖ(1 − pᵢₖ)·zᵢⱼ² / n plus the
  /// penalty's 1/(s²·C·n).
  func updatePreconditioner() {
    let n = Double(rows)
    let outputs = outputs
    let width = width
    for i in diagonal.indices { diagonal[i] = 0 }
    current.withUnsafeBufferPointer { p in
      design.withUnsafeBufferPointer { z in
        blockScratch.withUnsafeMutableBufferPointer { w in
          blockSquares.withUnsafeMutableBufferPointer { squares in
            diagonal.withUnsafeMutableBufferPointer { g in
              var start = 0
              while start < rows {
                let count = min(blockRows, rows - start)
                for i in 0..<(count * outputs) {
                  let probability = p[start * outputs + i]
                  w[i] = probability * (1 - probability)
                }
                for i in 0..<(count * width) {
                  let value = z[start * width + i]
                  squares[i] = value * value
                }
                if outputs == 1 {
                  LAPACK.accumulateTransposed(
                    squares.baseAddress!, rows: count, columns: width, vector: w.baseAddress!, scale: 1 / n,
                    into: g.baseAddress!)
                } else {
                  LAPACK.multiplyTransposedLeft(
                    w.baseAddress!, rows: count, columns: outputs, squares.baseAddress!, inner: width, scale: 1 / n,
                    into: g.baseAddress!, stride: width, accumulate: true)
                }
                start += count
              }
            }
          }
        }
      }
    }
    for k in 0..<outputs {
      for j in 0..<features { diagonal[k * width + j] += penaltyPerRow / (scale[j] * scale[j]) }
    }
  }

  /// M⁻¹·r for the diagonal preconditioner (1 where the diagonal vanishes), kept in the classes' subspace.
  func precondition(_ residual: [Double], into out: inout [Double]) {
    for i in out.indices { out[i] = diagonal[i] > 0 ? residual[i] / diagonal[i] : residual[i] }
    centre(&out)
  }
}
