@_spi(Testing) import BenchbookModels
import Testing

/// The in-place transposition must give exactly what copying element by element gives, on every shape: square,
/// tall, wide, a single row or column, and shapes whose cycles are many and short or few and long.
@Suite struct InPlaceTransposeTests {
  static let shapes: [(rows: Int, columns: Int)] = [
    (0, 0), (0, 3), (1, 1), (1, 7), (7, 1), (2, 2), (2, 3), (3, 2), (4, 4), (5, 3), (3, 5), (10, 6), (97, 13),
    (64, 64), (1000, 7), (7, 1000), (250, 205),
  ]

  @Test(arguments: shapes.indices) func equalsTheCopiedTranspose(_ shape: Int) {
    let (rows, columns) = Self.shapes[shape]
    // Distinct values, so any misplaced one shows.
    let rowMajor = (0..<rows * columns).map { Double($0) + 0.5 }
    var expected = [Double](repeating: 0, count: rows * columns)
    for r in 0..<rows {
      for c in 0..<columns { expected[c * rows + r] = rowMajor[r * columns + c] }
    }
    var values = rowMajor
    values.withUnsafeMutableBufferPointer {
      InPlaceTranspose.rowMajorToColumnMajor($0, rows: rows, columns: columns)
    }
    #expect(values == expected, "\(rows)×\(columns)")
  }
}
