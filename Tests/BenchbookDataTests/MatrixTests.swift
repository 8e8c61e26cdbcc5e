import BenchbookData
import Testing

@Suite struct MatrixTests {
  @Test func storesRowMajor() {
    let m = Matrix([[1, 2, 3], [4, 5, 6]])
    #expect(m.values == [1, 2, 3, 4, 5, 6])
    #expect(m[1, 0] == 4)
    #expect(m.row(1) == [4, 5, 6])
    #expect(m.column(2) == [3, 6])
  }

  @Test func selectsRowsAndColumnsInGivenOrder() {
    let m = Matrix([[1, 2], [3, 4], [5, 6]])
    #expect(m.selecting(rows: [2, 0]) == Matrix([[5, 6], [1, 2]]))
    #expect(m.selecting(columns: [1]) == Matrix([[2], [4], [6]]))
  }

  /// Rows copied straight into place: repeats, a lazy index collection, no rows and no columns all come out
  /// as row-by-row gathering gives them.
  @Test func selectsRepeatedRowsFromAnyCollection() {
    let m = Matrix([[1, 2], [3, 4], [5, 6]])
    #expect(m.selecting(rows: [1, 1, 0]) == Matrix([[3, 4], [3, 4], [1, 2]]))
    #expect(m.selecting(rows: [Int32(2), 0].lazy.map { Int($0) }) == Matrix([[5, 6], [1, 2]]))
    #expect(m.selecting(rows: (0..<3).reversed()) == Matrix([[5, 6], [3, 4], [1, 2]]))
    #expect(m.selecting(rows: [Int]()) == Matrix(rows: 0, columns: 2))
    #expect(Matrix(rows: 3, columns: 0).selecting(rows: [2, 1]) == Matrix(rows: 2, columns: 0))
  }

  /// A NaN or another shape must fail any tolerance: `max` would skip a NaN, so it is caught.
  @Test func largestDifferenceFailsOnNaNAndOtherShapes() {
    let m = Matrix([[1, 2], [3, 4]])
    #expect(m.largestDifference(from: Matrix([[1, 2.5], [2, 4]])) == 1)
    #expect(m.largestDifference(from: m) == 0)
    #expect(m.largestDifference(from: Matrix([[1, .nan], [3, 4]])) == .infinity)
    #expect(Matrix([[.nan, 2], [3, 4]]).largestDifference(from: m) == .infinity)
    #expect(m.largestDifference(from: Matrix([[1, 2]])) == .infinity)
  }
}
