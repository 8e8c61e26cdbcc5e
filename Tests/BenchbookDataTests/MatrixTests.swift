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

  /// A fold's rows (`RowIndices`) gathered a run at a time, one value a row or a matrix's row of `width` values, come
  /// out as the rows gathered one by one do: out of order, runs of one and of several rows, and no columns.
  @Test func foldRowsGatherARunAtATime() {
    let rows = RowIndices([3, 4, 0, 2])
    let listed: [Int] = [3, 4, 0, 2]
    #expect(rows.gathering([10, 11, 12, 13, 14]) == [13, 14, 10, 12])
    #expect(rows.gathering(Array(0..<10), width: 2) == [6, 7, 8, 9, 0, 1, 4, 5])
    #expect(rows.gathering(["a", "b", "c", "d", "e"], width: 0).isEmpty)
    let m = Matrix((0..<5).map { [Double($0), Double(10 * $0)] })
    #expect(m.selecting(rows: rows) == m.selecting(rows: listed))
    #expect(m.selecting(rows: rows) == Matrix([[3, 30], [4, 40], [0, 0], [2, 20]]))
    #expect(Matrix(rows: 5, columns: 0).selecting(rows: rows) == Matrix(rows: 4, columns: 0))
  }

  /// `isAscending`, checked a run at a time, agrees with a row-by-row check in every storage: a range, a list in
  /// and out of order (a run that starts where the one before ended, or earlier), and rows with some left out.
  @Test func rowsAreAscendingWhenEveryRunStartsPastTheLast() {
    let cases: [RowIndices] = [
      RowIndices(all: 6), RowIndices([]), RowIndices([0, 1, 2, 5, 6, 9]), RowIndices([3, 4, 0, 2]),
      RowIndices([2, 3, 3, 4]), RowIndices([5, 6, 4]), RowIndices(RowIndices(all: 10), except: [0, 4, 5, 9]),
      RowIndices(RowIndices([7, 8, 9, 1, 2]), except: [1]), RowIndices(RowIndices([7, 8, 9, 1, 2]), except: [3, 4]),
    ]
    for rows in cases {
      let listed = Array(rows)
      #expect(rows.isAscending == zip(listed, listed.dropFirst()).allSatisfy { $0 < $1 }, "\(listed)")
    }
    #expect(!RowIndices([2, 3, 3, 4]).isAscending)
    #expect(RowIndices(RowIndices([7, 8, 9, 1, 2]), except: [3, 4]).isAscending)
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
