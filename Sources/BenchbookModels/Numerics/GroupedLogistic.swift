import BenchbookData
import Foundation

/// Logistic regression fitted on the distinct rows of its data, each with its rows' class counts: the same
/// objective as `LogisticRegression` on the rows themselves (mean log-loss plus ½‖w‖²/(C·n), intercepts
/// unpenalised; a sigmoid for two classes, a softmax for more), so the same optimum, at a cost that depends on
/// the distinct rows, not the rows.
///
/// The leak audit scores every feature alone, and a category's one-hot columns take one distinct row per level:
/// a feature of many levels and many classes (Forbes 2000's 61 countries, 27 classes) can cost as much as the
/// whole model when fitted row by row.
/// `OneColumnLogistic` does the same for a single column with an exact Hessian; here the parameters are
/// (levels + 1) per class, so Newton's steps are solved by conjugate gradients (`NewtonCG`), as
/// `LogisticRegression` solves many-class fits.
public struct GroupedLogistic: Sendable {
  public var C: Double
  /// Stop when the largest gradient component is below this.
  public var tol: Double
  public var maxIter: Int

  public init(C: Double = 1.0, tol: Double = 1e-8, maxIter: Int = 1_000) {
    self.C = C
    self.tol = tol
    self.maxIter = maxIter
  }

  /// The distinct rows of a matrix, in order of first appearance, and the group of each row.
  public struct Groups: Sendable {
    /// One row per group, the first of its rows.
    public let rows: Matrix
    public let groupOfRow: [Int]

    /// The groups of `x`'s rows (equal when every value is equal, +0 and −0 alike); `nil` when there are more
    /// than `limit` of them, or a value is not finite.
    ///
    /// Rows are found by a hash of their values in an open-addressed table of group numbers, and compared with the
    /// group's first row: no key is allocated per row.
    public init?(_ x: Matrix, atMost limit: Int) {
      let width = x.columns
      var groupOfRow = [Int](repeating: 0, count: x.rows)
      var first: [Int] = []
      var hashOfGroup: [UInt64] = []
      // Group numbers by hash slot, -1 where empty; kept at most half full, doubled and refilled from the
      // groups' hashes when it would not be.
      var slots = [Int32](repeating: -1, count: 64)
      var mask = slots.count - 1
      let failed: Bool = x.values.withUnsafeBufferPointer { values in
        func same(_ a: Int, _ b: Int) -> Bool {
          for c in 0..<width where values[a * width + c] != values[b * width + c] { return false }
          return true
        }
        for row in 0..<x.rows {
          var hasher = ValueHasher()
          for c in 0..<width {
            let value = values[row * width + c]
            guard value.isFinite else { return true }
            hasher.combine(value)
          }
          let hash = hasher.finalized
          var slot = Int(truncatingIfNeeded: hash) & mask
          while true {
            let group = Int(slots[slot])
            if group < 0 { break }
            if hashOfGroup[group] == hash && same(first[group], row) {
              groupOfRow[row] = group
              slot = -1
              break
            }
            slot = (slot + 1) & mask
          }
          if slot < 0 { continue }
          guard first.count < limit else { return true }
          slots[slot] = Int32(first.count)
          groupOfRow[row] = first.count
          first.append(row)
          hashOfGroup.append(hash)
          if 2 * first.count > slots.count {
            slots = [Int32](repeating: -1, count: 2 * slots.count)
            mask = slots.count - 1
            for (group, hash) in hashOfGroup.enumerated() {
              var slot = Int(truncatingIfNeeded: hash) & mask
              while slots[slot] >= 0 { slot = (slot + 1) & mask }
              slots[slot] = Int32(group)
            }
          }
        }
        return false
      }
      if failed { return nil }
      rows = x.selecting(rows: first)
      self.groupOfRow = groupOfRow
    }
  }

  /// Fits the groups' rows to `labels` (one per row of the data grouped) in 0..<classCount: a logistic regression
  /// over the classes present, answering in the dataset's class set as `fitPresentClasses` does (absent classes
  /// get 0, a lone class 1), and predicting as `LogisticRegression`'s fits do. `nil` when there are no rows or
  /// the fit diverges, where `LogisticRegression` throws.
  public func fit(_ groups: Groups, labels: [Int], classCount: Int) -> (any FittedClassifier)? {
    precondition(groups.groupOfRow.count == labels.count, "one label per row")
    guard !labels.isEmpty, C > 0 else { return nil }
    let present = PresentClasses(labels: labels, classCount: classCount)
    if let single = present.singleClassModel { return single }
    return fitEveryClass(groups, labels: present.dense(labels), classCount: present.count).map { present.widened($0) }
  }

  /// The fit on labels that hold every class of 0..<k, at least two.
  private func fitEveryClass(_ groups: Groups, labels: [Int], classCount k: Int) -> FittedLogisticRegression? {
    let d = groups.rows.columns
    var classRows = [Int](repeating: 0, count: k)
    var counts = [Double](repeating: 0, count: groups.rows.rows * k)
    for (row, label) in labels.enumerated() {
      classRows[label] += 1
      counts[groups.groupOfRow[row] * k + label] += 1
    }
    let objective = Objective(
      design: groups.rows, counts: counts, classes: k, rows: Double(labels.count),
      penaltyPerRow: 1 / (C * Double(labels.count)))
    // Zero weights, and intercepts at the classes' log shares (centred under a softmax).
    let width = d + 1
    var start = [Double](repeating: 0, count: objective.outputs * width)
    let shares = classRows.map { log(Double($0)) }
    if objective.outputs == 1 {
      start[d] = shares[1] - shares[0]
    } else {
      let mean = shares.reduce(0, +) / Double(k)
      for o in 0..<k { start[o * width + d] = shares[o] - mean }
    }
    let result = NewtonCG(gradientTolerance: tol, maxIterations: maxIter).minimize(from: start, objective: objective)
    guard result.status != .nonFiniteStart, result.solution.allSatisfy(\.isFinite) else { return nil }
    var coefficients = [Double](repeating: 0, count: objective.outputs * d)
    var intercepts = [Double](repeating: 0, count: objective.outputs)
    for o in 0..<objective.outputs {
      for j in 0..<d { coefficients[o * d + j] = result.solution[o * width + j] }
      intercepts[o] = result.solution[o * width + d]
    }
    return FittedLogisticRegression(
      coefficients: Matrix(rows: objective.outputs, columns: d, values: coefficients), intercepts: intercepts,
      classCount: k, fitIntercept: true, iterations: result.iterations, evaluations: result.evaluations,
      converged: result.status == .converged, finalGradient: LBFGS.maxAbs(result.gradient))
  }

  /// The objective over the groups, in the data's own coordinates (the audit standardises a feature before it
  /// scores it). Parameters per output: the weights, then the intercept. Under a softmax, gradients and
  /// products are kept where the classes' parameters sum to zero, as in `LogisticCurvature`.
  ///
  /// Every sum is taken term by term in a fixed order (a score from its intercept through the columns in turn, a
  /// gradient entry over the groups in turn), so the fit is the same to the bit however it is computed; the
  /// loops run over unchecked pointers, a group's outputs side by side, so that the compiler can keep several
  /// outputs' independent sums in one vector register.
  @_spi(Testing) public final class Objective: NewtonObjective {
    let design: Matrix
    /// groups × classes, row-major.
    let counts: [Double]
    /// Rows per group.
    let totals: [Double]
    let classes: Int
    let outputs: Int
    let rows: Double
    let penaltyPerRow: Double
    var width: Int { design.columns + 1 }
    /// Probabilities per group and output at the current point and at the trial.
    private var current: [Double]
    private var trial: [Double]
    private var diagonal: [Double]
    /// Scratch: parameters transposed to width × outputs (one parameter's outputs side by side), and a value per
    /// group and output (scores, then residuals or products).
    private var transposed: [Double]
    private var perGroup: [Double]

    @_spi(Testing) public init(design: Matrix, counts: [Double], classes: Int, rows: Double, penaltyPerRow: Double) {
      self.design = design
      self.counts = counts
      self.classes = classes
      outputs = classes == 2 ? 1 : classes
      self.rows = rows
      self.penaltyPerRow = penaltyPerRow
      totals = (0..<design.rows).map { g in (0..<classes).reduce(0.0) { $0 + counts[g * classes + $1] } }
      current = [Double](repeating: 0, count: design.rows * outputs)
      trial = current
      diagonal = [Double](repeating: 1, count: outputs * (design.columns + 1))
      transposed = [Double](repeating: 0, count: (design.columns + 1) * outputs)
      perGroup = [Double](repeating: 0, count: design.rows * outputs)
    }

    /// Every group's outputs' linear functions of `parameters` into `perGroup` (groups × outputs): output o at
    /// group g is its intercept, then plus weight j times the group's column j for j = 0, 1, … in turn.
    private func score(_ parameters: [Double]) {
      let (d, k, width) = (design.columns, outputs, width)
      transposed.withUnsafeMutableBufferPointer { t in
        for o in 0..<k {
          for j in 0..<width { t[j * k + o] = parameters[o * width + j] }
        }
      }
      design.values.withUnsafeBufferPointer { x in
        transposed.withUnsafeBufferPointer { t in
          perGroup.withUnsafeMutableBufferPointer { scores in
            let (x, t, scores) = (x.baseAddress!, t.baseAddress!, scores.baseAddress!)
            for g in 0..<design.rows {
              let s = scores + g * k
              let row = x + g * d
              s.update(from: t + d * k, count: k)
              for j in 0..<d {
                let (value, weights) = (row[j], t + j * k)
                for o in 0..<k { s[o] += weights[o] * value }
              }
            }
          }
        }
      }
    }

    /// Σ_g perGroup[g]·(x_g, 1) / n into `out`, plus the penalty's term on `parameters`' weights, centred over
    /// classes.
    private func accumulate(penalised parameters: [Double], into out: inout [Double]) {
      let (d, k, rows) = (design.columns, outputs, rows)
      perGroup.withUnsafeBufferPointer { q in
        let q = q.baseAddress!
        sumWeightedRows(into: &out, squared: false) { g, o in q[g * k + o] / rows }
      }
      for o in 0..<outputs {
        for j in 0..<d { out[o * width + j] += penaltyPerRow * parameters[o * width + j] }
      }
      LogisticCurvature.centre(&out, outputs: outputs, width: width)
    }

    @_spi(Testing) public func evaluate(_ parameters: [Double], gradient: inout [Double]) -> Double {
      score(parameters)
      let (k, classes) = (outputs, classes)
      var loss = 0.0
      counts.withUnsafeBufferPointer { counts in
        trial.withUnsafeMutableBufferPointer { trial in
          perGroup.withUnsafeMutableBufferPointer { values in
            for g in 0..<design.rows {
              let total = totals[g]
              if k == 1 {
                let margin = values[g]
                // N·log(1 + exp(m)) − n₁·m, with log(1 + exp(m)) = max(m, 0) + log1p(exp(−|m|)).
                let e = exp(-abs(margin))
                loss += total * (max(margin, 0) + log1p(e)) - counts[g * 2 + 1] * margin
                let probability = margin >= 0 ? 1 / (1 + e) : e / (1 + e)
                trial[g] = probability
                values[g] = total * probability - counts[g * 2 + 1]
              } else {
                let scores = values.baseAddress! + g * k
                var largest = scores[0]
                for o in 1..<k where largest < scores[o] { largest = scores[o] }
                var sum = 0.0
                for o in 0..<k { sum += exp(scores[o] - largest) }
                let logNormaliser = largest + log(sum)
                for o in 0..<k {
                  let count = counts[g * classes + o]
                  loss += count * (logNormaliser - scores[o])
                  let probability = exp(scores[o] - logNormaliser)
                  trial[g * k + o] = probability
                  scores[o] = total * probability - count
                }
              }
            }
          }
        }
      }
      accumulate(penalised: parameters, into: &gradient)
      var squares = 0.0
      for o in 0..<outputs {
        for j in 0..<design.columns { squares += parameters[o * width + j] * parameters[o * width + j] }
      }
      return loss / rows + 0.5 * penaltyPerRow * squares
    }

    @_spi(Testing) public func acceptTrial() { swap(&current, &trial) }

    @_spi(Testing) public func hessianProduct(_ direction: [Double], into out: inout [Double]) {
      score(direction)
      let k = outputs
      current.withUnsafeBufferPointer { current in
        perGroup.withUnsafeMutableBufferPointer { values in
          for g in 0..<design.rows {
            let total = totals[g]
            if k == 1 {
              let p = current[g]
              values[g] = total * p * (1 - p) * values[g]
            } else {
              let (t, p) = (values.baseAddress! + g * k, current.baseAddress! + g * k)
              var mean = 0.0
              for o in 0..<k { mean += p[o] * t[o] }
              for o in 0..<k { t[o] = total * p[o] * (t[o] - mean) }
            }
          }
        }
      }
      accumulate(penalised: direction, into: &out)
    }

    /// The Hessian's diagonal at the current point: Σ_g N_g·p(1 − p)·x² / n plus the penalty on weights.
    @_spi(Testing) public func updatePreconditioner() {
      let (d, k, rows) = (design.columns, outputs, rows)
      current.withUnsafeBufferPointer { current in
        totals.withUnsafeBufferPointer { totals in
          let (current, totals) = (current.baseAddress!, totals.baseAddress!)
          sumWeightedRows(into: &diagonal, squared: true) { g, o in
            let p = current[g * k + o]
            return totals[g] * p * (1 - p) / rows
          }
        }
      }
      for o in 0..<outputs { for j in 0..<d { diagonal[o * width + j] += penaltyPerRow } }
    }

    /// Sets `out` to, for each output o, the sum over groups g (in order) of `weight(g, o)` times the group's
    /// row (each value squared when `squared`), with the weights' sum in o's intercept slot: the gradient's and
    /// the preconditioner's one loop, each product taken as `weight · x` (then `· x`).
    @inline(__always)
    private func sumWeightedRows(into out: inout [Double], squared: Bool, weight: (Int, Int) -> Double) {
      let (d, k, width) = (design.columns, outputs, width)
      for i in out.indices { out[i] = 0 }
      design.values.withUnsafeBufferPointer { x in
        out.withUnsafeMutableBufferPointer { out in
          let (x, out) = (x.baseAddress!, out.baseAddress!)
          for g in 0..<design.rows {
            let row = x + g * d
            for o in 0..<k {
              let w = weight(g, o)
              let sums = out + o * width
              if squared {
                for j in 0..<d { sums[j] += w * row[j] * row[j] }
              } else {
                for j in 0..<d { sums[j] += w * row[j] }
              }
              sums[d] += w
            }
          }
        }
      }
    }

    @_spi(Testing) public func precondition(_ residual: [Double], into out: inout [Double]) {
      for i in out.indices { out[i] = diagonal[i] > 0 ? residual[i] / diagonal[i] : residual[i] }
      LogisticCurvature.centre(&out, outputs: outputs, width: width)
    }
  }
}
