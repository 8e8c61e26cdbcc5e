/// A dense matrix of doubles stored row-major in one contiguous array.
///
/// Models, transforms and measures all exchange data in this one shape, so hot
/// loops can walk memory in order and nothing needs a generic numeric type.
public struct Matrix: Sendable, Equatable {
  public let rows: Int
  public let columns: Int
  /// Row-major values: element (r, c) is at `r * columns + c`.
  public var values: [Double]

  public init(rows: Int, columns: Int, values: [Double]) {
    precondition(rows >= 0 && columns >= 0, "negative matrix dimension")
    precondition(values.count == rows * columns, "matrix values do not match \(rows)×\(columns)")
    self.rows = rows
    self.columns = columns
    self.values = values
  }

  public init(rows: Int, columns: Int, repeating value: Double = 0) {
    self.init(rows: rows, columns: columns, values: Array(repeating: value, count: rows * columns))
  }

  /// Builds a matrix from rows of equal length.
  public init(_ rowArrays: [[Double]]) {
    let columns = rowArrays.first?.count ?? 0
    precondition(rowArrays.allSatisfy { $0.count == columns }, "ragged rows")
    self.init(rows: rowArrays.count, columns: columns, values: rowArrays.flatMap { $0 })
  }

  /// Inlinable: models in other modules read and write entries in their inner loops.
  @inlinable
  public subscript(row: Int, column: Int) -> Double {
    get { values[row * columns + column] }
    set { values[row * columns + column] = newValue }
  }

  /// The values of one row, copied.
  public func row(_ index: Int) -> [Double] {
    Array(values[(index * columns)..<((index + 1) * columns)])
  }

  /// The values of one column, copied.
  public func column(_ index: Int) -> [Double] {
    (0..<rows).map { values[$0 * columns + index] }
  }

  /// A new matrix holding the given rows, in the given order.
  ///
  /// Splitters hand out row indices (`RowIndices` has its own overload, a run at a time). Each row is copied into
  /// an array sized once (appending a slice per row cost a retain, a release and an append each), and the
  /// function is inlinable so that a caller's index collection is iterated without a generic call per row.
  /// - Complexity: O(indices.count × columns).
  /// - Parameter room: columns' worth of capacity left unused after the rows, for a fit handed the copy that widens
  ///   it in place (`hasRoom(forColumns:)`). Untouched, the room of a matrix of 8 MiB or more (mapped on its own,
  ///   `HeapPolicy`) takes address space, not memory.
  @inlinable
  public func selecting<C: Collection<Int>>(rows indices: C, roomForColumns room: Int = 0) -> Matrix {
    let count = indices.count
    let columns = columns
    let rows = rows
    let out = [Double](unsafeUninitializedCapacity: count * (columns + room)) { target, initialized in
      values.withUnsafeBufferPointer { source in
        var written = 0
        for index in indices {
          precondition(index >= 0 && index < rows, "row \(index) out of 0..<\(rows)")
          precondition(written < count, "more rows than the collection counts")
          if columns > 0 {
            (target.baseAddress! + written * columns).initialize(
              from: source.baseAddress! + index * columns, count: columns)
          }
          written += 1
        }
        precondition(written == count, "fewer rows than the collection counts")
      }
      initialized = count * columns
    }
    return Matrix(rows: count, columns: columns, values: out)
  }

  /// Whether `values` has capacity for `room` more columns of every row, so that a fit holding the only reference
  /// can widen it without moving it.
  public func hasRoom(forColumns room: Int) -> Bool { values.capacity >= rows * (columns + room) }

  /// A new matrix holding the given columns, in the given order.
  public func selecting(columns indices: [Int]) -> Matrix {
    var out = [Double]()
    out.reserveCapacity(rows * indices.count)
    for r in 0..<rows {
      for c in indices { out.append(values[r * columns + c]) }
    }
    return Matrix(rows: rows, columns: indices.count, values: out)
  }

  /// The largest absolute difference between this matrix's entries and `other`'s, in order: how far one
  /// computation of the same values (an exported file's probabilities, a refit) is from another. Infinity when
  /// the shapes differ or an entry is NaN on either side, so that a comparison with a tolerance fails.
  public func largestDifference(from other: Matrix) -> Double {
    guard rows == other.rows, columns == other.columns else { return .infinity }
    var largest = 0.0
    for (a, b) in zip(values, other.values) {
      let difference = abs(a - b)
      guard !difference.isNaN else { return .infinity }
      largest = Swift.max(largest, difference)
    }
    return largest
  }
}
