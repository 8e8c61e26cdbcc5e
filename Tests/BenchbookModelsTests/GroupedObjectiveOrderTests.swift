import BenchbookData
@_spi(Testing) import BenchbookModels
import Foundation
import Testing

/// `GroupedLogistic.Objective` computes its sums over unchecked pointers, a group's outputs side by side; each sum
/// must still take its terms in the order of the formulas written out one output at a time (below), so that the
/// leak audit's single-feature AUCs stay the same to the bit. Values, gradients, Hessian products and
/// preconditioned residuals are compared bit for bit.
@Suite struct GroupedObjectiveOrderTests {
  /// The objective's formulas, one output and one term at a time.
  struct TermByTerm {
    let x: Matrix
    let counts: [Double]
    let classes: Int
    let rows: Double
    let penaltyPerRow: Double
    var outputs: Int { classes == 2 ? 1 : classes }
    var width: Int { x.columns + 1 }
    var totals: [Double] {
      (0..<x.rows).map { g in (0..<classes).reduce(0.0) { $0 + counts[g * classes + $1] } }
    }

    func score(_ parameters: [Double], _ g: Int, _ o: Int) -> Double {
      var score = parameters[o * width + x.columns]
      for j in 0..<x.columns { score += parameters[o * width + j] * x[g, j] }
      return score
    }

    func centre(_ values: inout [Double]) {
      guard outputs > 1 else { return }
      for j in 0..<width {
        var mean = 0.0
        for o in 0..<outputs { mean += values[o * width + j] }
        mean /= Double(outputs)
        for o in 0..<outputs { values[o * width + j] -= mean }
      }
    }

    func accumulate(_ q: [Double], penalised parameters: [Double]) -> [Double] {
      var out = [Double](repeating: 0, count: outputs * width)
      for g in 0..<x.rows {
        for o in 0..<outputs {
          let weight = q[g * outputs + o] / rows
          for j in 0..<x.columns { out[o * width + j] += weight * x[g, j] }
          out[o * width + x.columns] += weight
        }
      }
      for o in 0..<outputs {
        for j in 0..<x.columns { out[o * width + j] += penaltyPerRow * parameters[o * width + j] }
      }
      centre(&out)
      return out
    }

    /// Value, gradient and the probabilities per group and output.
    func evaluate(_ parameters: [Double]) -> (value: Double, gradient: [Double], probabilities: [Double]) {
      var loss = 0.0
      var residuals = [Double](repeating: 0, count: x.rows * outputs)
      var probabilities = residuals
      let totals = totals
      for g in 0..<x.rows {
        if outputs == 1 {
          let margin = score(parameters, g, 0)
          let e = exp(-abs(margin))
          loss += totals[g] * (max(margin, 0) + log1p(e)) - counts[g * 2 + 1] * margin
          let probability = margin >= 0 ? 1 / (1 + e) : e / (1 + e)
          probabilities[g] = probability
          residuals[g] = totals[g] * probability - counts[g * 2 + 1]
        } else {
          let scores = (0..<outputs).map { score(parameters, g, $0) }
          let largest = scores.max()!
          var sum = 0.0
          for o in 0..<outputs { sum += exp(scores[o] - largest) }
          let logNormaliser = largest + log(sum)
          for o in 0..<outputs {
            let count = counts[g * classes + o]
            loss += count * (logNormaliser - scores[o])
            let probability = exp(scores[o] - logNormaliser)
            probabilities[g * outputs + o] = probability
            residuals[g * outputs + o] = totals[g] * probability - count
          }
        }
      }
      var squares = 0.0
      for o in 0..<outputs {
        for j in 0..<x.columns { squares += parameters[o * width + j] * parameters[o * width + j] }
      }
      return (
        loss / rows + 0.5 * penaltyPerRow * squares, accumulate(residuals, penalised: parameters), probabilities
      )
    }

    func hessianProduct(_ direction: [Double], at p: [Double]) -> [Double] {
      var q = [Double](repeating: 0, count: x.rows * outputs)
      let totals = totals
      for g in 0..<x.rows {
        if outputs == 1 {
          q[g] = totals[g] * p[g] * (1 - p[g]) * score(direction, g, 0)
        } else {
          var mean = 0.0
          var t = [Double](repeating: 0, count: outputs)
          for o in 0..<outputs {
            t[o] = score(direction, g, o)
            mean += p[g * outputs + o] * t[o]
          }
          for o in 0..<outputs { q[g * outputs + o] = totals[g] * p[g * outputs + o] * (t[o] - mean) }
        }
      }
      return accumulate(q, penalised: direction)
    }

    func preconditioned(_ residual: [Double], at p: [Double]) -> [Double] {
      var diagonal = [Double](repeating: 0, count: outputs * width)
      let totals = totals
      for g in 0..<x.rows {
        for o in 0..<outputs {
          let weight = totals[g] * p[g * outputs + o] * (1 - p[g * outputs + o]) / rows
          for j in 0..<x.columns { diagonal[o * width + j] += weight * x[g, j] * x[g, j] }
          diagonal[o * width + x.columns] += weight
        }
      }
      for o in 0..<outputs { for j in 0..<x.columns { diagonal[o * width + j] += penaltyPerRow } }
      var out = residual.indices.map { diagonal[$0] > 0 ? residual[$0] / diagonal[$0] : residual[$0] }
      centre(&out)
      return out
    }
  }

  static func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }

  /// Two classes (a sigmoid), a few and many (Forbes 2000's 27 classes over 61 countries), with odd widths so
  /// that no vector length divides them.
  @Test(arguments: [(levels: 7, classes: 2), (13, 3), (61, 27)])
  func sumsTakeTheirTermsInOrder(levels: Int, classes: Int) throws {
    let data = GroupedLogisticTests.category(rows: 30 * levels, levels: levels, classCount: classes, seed: 77)
    let groups = try #require(GroupedLogistic.Groups(data.x, atMost: levels))
    var counts = [Double](repeating: 0, count: groups.rows.rows * classes)
    for (row, label) in data.labels.enumerated() { counts[groups.groupOfRow[row] * classes + label] += 1 }
    let rows = Double(data.labels.count)
    let penalty = 1 / rows
    let objective = GroupedLogistic.Objective(
      design: groups.rows, counts: counts, classes: classes, rows: rows, penaltyPerRow: penalty)
    let reference = TermByTerm(x: groups.rows, counts: counts, classes: classes, rows: rows, penaltyPerRow: penalty)
    var generator = SeededGenerator(seed: 5)
    let parameterCount = reference.outputs * reference.width
    func random() -> [Double] {
      (0..<parameterCount).map { _ in Double(generator.uniform(below: 1 << 20)) / Double(1 << 18) - 2 }
    }
    for _ in 0..<3 {
      let point = random()
      var gradient = [Double](repeating: .nan, count: parameterCount)
      let value = objective.evaluate(point, gradient: &gradient)
      objective.acceptTrial()
      let expected = reference.evaluate(point)
      #expect(value.bitPattern == expected.value.bitPattern)
      #expect(Self.bits(gradient) == Self.bits(expected.gradient))
      let direction = random()
      var product = [Double](repeating: .nan, count: parameterCount)
      objective.hessianProduct(direction, into: &product)
      #expect(Self.bits(product) == Self.bits(reference.hessianProduct(direction, at: expected.probabilities)))
      objective.updatePreconditioner()
      var preconditioned = [Double](repeating: .nan, count: parameterCount)
      objective.precondition(gradient, into: &preconditioned)
      #expect(Self.bits(preconditioned) == Self.bits(reference.preconditioned(gradient, at: expected.probabilities)))
    }
  }
}
