import BenchbookData
import BenchbookModels
import Foundation
import Testing

/// The prediction of a column group from the others: what the leak audit holds a correlated feature at.
@Suite struct ColumnGroupPredictionsTests {
  /// Columns a, b = 2a + 1 + small noise, c independent; groups [a], [b], [c].
  static func correlated() -> Matrix {
    var generator = MersenneTwister(seed: 7)
    func uniform() -> Double { Double(generator.next()) / Double(UInt32.max) }
    var values: [Double] = []
    for _ in 0..<400 {
      let a = uniform() * 10
      let noise = (uniform() - 0.5) * 0.01
      values += [a, 2 * a + 1 + noise, uniform()]
    }
    return Matrix(rows: 400, columns: 3, values: values)
  }

  @Test func aColumnMeasuredTwiceIsRecoveredFromItsTwin() throws {
    let x = Self.correlated()
    let predictions = try #require(ColumnGroupPredictions(x, groups: [[0], [1], [2]]))
    let held = predictions.replacing(group: 1, in: x)
    for r in 0..<x.rows {
      #expect(abs(held[r, 1] - x[r, 1]) < 0.02)
      #expect(held[r, 0] == x[r, 0] && held[r, 2] == x[r, 2])
    }
  }

  @Test func anIndependentColumnIsHeldNearItsMean() throws {
    let x = Self.correlated()
    let predictions = try #require(ColumnGroupPredictions(x, groups: [[0], [1], [2]]))
    let held = predictions.replacing(group: 2, in: x)
    let mean = x.column(2).reduce(0, +) / Double(x.rows)
    #expect((0..<x.rows).allSatisfy { abs(held[$0, 2] - mean) < 0.05 })
  }

  /// One-hot columns (each row's levels sum to one) stay solvable, and a level implied by another column is found.
  @Test func oneHotGroupIsPredictedFromWhatDeterminesIt() throws {
    var values: [Double] = []
    for r in 0..<300 {
      let level = r % 3
      let signal = Double(level) + 0.001 * Double(r % 7)
      values += [signal] + (0..<3).map { $0 == level ? 1 : 0 }
    }
    let x = Matrix(rows: 300, columns: 4, values: values)
    let predictions = try #require(ColumnGroupPredictions(x, groups: [[0], [1, 2, 3]]))
    let held = predictions.replacing(group: 1, in: x)
    // Linear in the signal, the prediction cannot place the middle level exactly, but it sums to one and leans
    // towards the right level at the ends.
    for r in 0..<x.rows {
      #expect(abs(held[r, 1] + held[r, 2] + held[r, 3] - 1) < 1e-4)
    }
    #expect(held[0, 1] > 0.5 && held[2, 3] > 0.5)
  }

  @Test func refusesMissingValues() {
    let x = Matrix(rows: 2, columns: 2, values: [1, .nan, 2, 3])
    #expect(ColumnGroupPredictions(x, groups: [[0], [1]]) == nil)
  }
}
