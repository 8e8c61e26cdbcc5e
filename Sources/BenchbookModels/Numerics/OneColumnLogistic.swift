import BenchbookData
import Foundation

/// Logistic regression on a single column, fitted on its distinct values' class counts by Newton's method with the
/// exact Hessian: the same objective as `LogisticRegression` (mean log-loss plus ½‖w‖²/(C·n); a sigmoid for two
/// classes, a softmax for more), so the same optimum, at a cost that depends on the distinct values, not the rows.
///
/// The leak audit scores every feature alone on every inner fold: digits' 64 pixels take 17 values each, so a fit
/// of hundreds of rows becomes one of 17 weighted points, and with 2·K parameters the Hessian is small enough to
/// factor outright (`LogisticRegression`'s solvers are built for thousands of rows and hundreds of columns).
public struct OneColumnLogistic: Sendable {
  public var C: Double
  /// Stop when the largest gradient component is below this.
  public var tol: Double
  public var maxIter: Int

  public init(C: Double = 1.0, tol: Double = 1e-8, maxIter: Int = 100) {
    self.C = C
    self.tol = tol
    self.maxIter = maxIter
  }

  /// A fit: per output, an intercept and a slope; classes absent from the training rows get probability 0.
  public struct Fitted: Sendable {
    /// Classes present in the training rows, ascending.
    public let present: [Int]
    public let classCount: Int
    /// One output for two present classes (the second's log-odds), else one per present class (softmax).
    public let intercepts: [Double]
    public let slopes: [Double]
    public let converged: Bool

    /// Probabilities for each value, rows × `classCount`.
    public func probabilities(_ values: [Double]) -> Matrix {
      var out = Matrix(rows: values.count, columns: classCount)
      var p = [Double](repeating: 0, count: present.count)
      for (r, value) in values.enumerated() {
        OneColumnLogistic.classProbabilities(value, intercepts, slopes, into: &p)
        for (i, c) in present.enumerated() { out[r, c] = p[i] }
      }
      return out
    }
  }

  /// Fits `values` (one per row) to `labels` in 0..<classCount; `nil` when a value is not finite or there are no rows.
  public func fit(values: [Double], labels: [Int], classCount: Int) -> Fitted? {
    precondition(values.count == labels.count, "one label per value")
    guard !values.isEmpty, values.allSatisfy(\.isFinite), C > 0 else { return nil }
    var counts = [Int](repeating: 0, count: classCount)
    for label in labels { counts[label] += 1 }
    let present = (0..<classCount).filter { counts[$0] > 0 }
    guard present.count >= 2 else {
      return Fitted(present: present, classCount: classCount, intercepts: [], slopes: [], converged: true)
    }
    let compact = Dictionary(uniqueKeysWithValues: present.enumerated().map { ($1, $0) })
    let k = present.count
    // Distinct values, ascending, with their rows' counts per (compact) class.
    let order = values.indices.sorted { values[$0] < values[$1] }
    var distinct: [Double] = []
    var classCounts: [Double] = []
    for row in order {
      if distinct.last != values[row] {
        distinct.append(values[row])
        classCounts.append(contentsOf: repeatElement(0, count: k))
      }
      classCounts[(distinct.count - 1) * k + compact[labels[row]]!] += 1
    }
    let problem = Problem(
      values: distinct, counts: classCounts, classes: k, rows: Double(values.count),
      penalty: 1 / (C * Double(values.count)))
    let (parameters, converged) = problem.minimize(
      from: problem.start(present.map { Double(counts[$0]) }), tol: tol, maxIter: maxIter)
    let outputs = problem.outputs
    return Fitted(
      present: present, classCount: classCount, intercepts: (0..<outputs).map { parameters[2 * $0] },
      slopes: (0..<outputs).map { parameters[2 * $0 + 1] }, converged: converged)
  }

  /// The present classes' probabilities at `value` into `p`, and the log of their normaliser: class c's log-loss
  /// is `logNormaliser − score(c)`, with scores 0 and s for a sigmoid of one output s, or one per class.
  @discardableResult
  static func classProbabilities(_ value: Double, _ intercepts: [Double], _ slopes: [Double], into p: inout [Double])
    -> Double
  {
    if p.count == 1 {
      p[0] = 1
      return 0
    }
    if intercepts.count == 1 {
      p[0] = 0
      p[1] = intercepts[0] + slopes[0] * value
    } else {
      for c in p.indices { p[c] = intercepts[c] + slopes[c] * value }
    }
    var largest = -Double.infinity
    for c in p.indices { largest = max(largest, p[c]) }
    var sum = 0.0
    for c in p.indices {
      p[c] = exp(p[c] - largest)
      sum += p[c]
    }
    for c in p.indices { p[c] /= sum }
    return largest + log(sum)
  }

  /// The objective on distinct values: parameters are (intercept, slope) per output.
  struct Problem {
    let values: [Double]
    /// distinct values × classes, row-major.
    let counts: [Double]
    let classes: Int
    let rows: Double
    let penalty: Double
    var outputs: Int { classes == 2 ? 1 : classes }
    /// The parameters Newton moves: every slope, and every intercept but the first class's under a softmax, which
    /// ignores a common shift of the intercepts.
    var free: [Int] { (0..<(2 * outputs)).filter { !(outputs > 1 && $0 == 0) } }

    /// Zero slopes and the classes' log-odds of their row counts.
    func start(_ classRows: [Double]) -> [Double] {
      var parameters = [Double](repeating: 0, count: 2 * outputs)
      if outputs == 1 {
        parameters[0] = log(classRows[1] / classRows[0])
      } else {
        for c in 0..<classes { parameters[2 * c] = log(classRows[c] / classRows[0]) }
      }
      return parameters
    }

    /// The objective, and with `derivatives` its gradient and Hessian over all 2·outputs parameters.
    func evaluate(_ parameters: [Double], derivatives: Bool) -> (value: Double, gradient: [Double], hessian: [Double]) {
      let m = 2 * outputs
      var gradient = [Double](repeating: 0, count: derivatives ? m : 0)
      var hessian = [Double](repeating: 0, count: derivatives ? m * m : 0)
      var loss = 0.0
      var p = [Double](repeating: 0, count: classes)
      let intercepts = (0..<outputs).map { parameters[2 * $0] }
      let slopes = (0..<outputs).map { parameters[2 * $0 + 1] }
      // Per output: its class's probability at the current value, as the softmax's derivatives need it.
      var q = [Double](repeating: 0, count: outputs)
      for (g, u) in values.enumerated() {
        let logNormaliser = OneColumnLogistic.classProbabilities(u, intercepts, slopes, into: &p)
        var total = 0.0
        for c in 0..<classes {
          let n = counts[g * classes + c]
          guard n > 0 else { continue }
          total += n
          let score = outputs == 1 ? (c == 1 ? intercepts[0] + slopes[0] * u : 0) : intercepts[c] + slopes[c] * u
          loss += n * (logNormaliser - score)
        }
        guard derivatives else { continue }
        for o in 0..<outputs { q[o] = p[outputs == 1 ? 1 : o] }
        for o in 0..<outputs {
          let residual = total * q[o] - counts[g * classes + (outputs == 1 ? 1 : o)]
          gradient[2 * o] += residual
          gradient[2 * o + 1] += residual * u
        }
        Self.addCurvature(total: total, u: u, q: q, into: &hessian, width: m)
      }
      var value = loss / rows
      for o in 0..<outputs { value += 0.5 * penalty * slopes[o] * slopes[o] }
      if derivatives {
        for i in 0..<m {
          gradient[i] /= rows
          for j in i..<m {
            hessian[i * m + j] /= rows
            hessian[j * m + i] = hessian[i * m + j]
          }
        }
        for o in 0..<outputs {
          gradient[2 * o + 1] += penalty * slopes[o]
          hessian[(2 * o + 1) * m + 2 * o + 1] += penalty
        }
      }
      return (value, gradient, hessian)
    }

    /// Adds one distinct value's share of the Hessian's upper triangle: ∂²/∂s_o∂s_o2 = total·(q_o·[o = o2] −
    /// q_o·q_o2), times (1, u)ᵀ(1, u). Its K(K+1)/2 pairs per value are most of a many-class fit (27 classes: 378
    /// pairs, 1,485 additions), so they are added through unchecked pointers, each entry receiving the same terms
    /// in the same order as before.
    @inline(__always)
    private static func addCurvature(total: Double, u: Double, q: [Double], into hessian: inout [Double], width m: Int)
    {
      let outputs = q.count
      precondition(hessian.count == m * m && m == 2 * outputs, "a 2·outputs square Hessian")
      q.withUnsafeBufferPointer { q in
        hessian.withUnsafeMutableBufferPointer { hessian in
          for o in 0..<outputs {
            let qo = q[o]
            let upper = hessian.baseAddress! + 2 * o * m  // row of o's intercept
            let lower = upper + m  // row of o's slope
            let own = total * (qo - qo * qo)
            upper[2 * o] += own
            upper[2 * o + 1] += own * u
            lower[2 * o + 1] += own * u * u
            for o2 in (o + 1)..<outputs {
              let weight = total * (0 - qo * q[o2])
              let j = 2 * o2
              upper[j] += weight
              upper[j + 1] += weight * u
              lower[j + 1] += weight * u * u
              lower[j] += weight * u
            }
          }
        }
      }
    }

    /// Newton's method with a backtracking line search, from `start`.
    func minimize(from start: [Double], tol: Double, maxIter: Int) -> (parameters: [Double], converged: Bool) {
      let m = 2 * outputs
      let free = free
      var parameters = start
      var current = evaluate(parameters, derivatives: true)
      for _ in 0..<maxIter {
        if free.allSatisfy({ abs(current.gradient[$0]) < tol }) { return (parameters, true) }
        let system = free.flatMap { i in free.map { j in current.hessian[i * m + j] } }
        guard let step = Self.solve(system, free.map { -current.gradient[$0] }) else { break }
        let slope = zip(free, step).reduce(0.0) { $0 + current.gradient[$1.0] * $1.1 }
        var length = 1.0
        var accepted = false
        while length > 1e-10 {
          var trial = parameters
          for (i, s) in zip(free, step) { trial[i] += length * s }
          let value = evaluate(trial, derivatives: false).value
          if value <= current.value + 1e-4 * length * slope {
            parameters = trial
            accepted = true
            break
          }
          length /= 2
        }
        guard accepted else { break }
        current = evaluate(parameters, derivatives: true)
      }
      return (parameters, free.allSatisfy { abs(current.gradient[$0]) < tol })
    }

    /// Solves the symmetric positive definite `a`·x = `b` by Cholesky; `nil` when `a` is not positive definite.
    static func solve(_ a: [Double], _ b: [Double]) -> [Double]? {
      let n = b.count
      var l = [Double](repeating: 0, count: n * n)
      for i in 0..<n {
        for j in 0...i {
          var sum = a[i * n + j]
          for k in 0..<j { sum -= l[i * n + k] * l[j * n + k] }
          if i == j {
            guard sum > 0, sum.isFinite else { return nil }
            l[i * n + i] = sum.squareRoot()
          } else {
            l[i * n + j] = sum / l[j * n + j]
          }
        }
      }
      var y = b
      for i in 0..<n {
        for k in 0..<i { y[i] -= l[i * n + k] * y[k] }
        y[i] /= l[i * n + i]
      }
      for i in stride(from: n - 1, through: 0, by: -1) {
        for k in (i + 1)..<n { y[i] -= l[k * n + i] * y[k] }
        y[i] /= l[i * n + i]
      }
      return y
    }
  }
}
