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
