/// A matrix transposed over its own storage: a fit that owns its rows (row-major) and needs them column-major for
/// LAPACK rearranges them instead of holding a second copy beside them.
///
/// Element (r, c) of an n×d matrix sits at i = r·d + c row-major and at j = c·n + r column-major; with N = n·d,
/// j ≡ i·n (mod N − 1) for every element but the last, so the elements move along cycles of that map, each
/// followed once (a bit a position records which have arrived). Only values move, so the numbers are unchanged.
@_spi(Testing) public enum InPlaceTranspose {
  /// Rewrites `values`, `rows`×`columns` row-major, as the same matrix column-major.
  public static func rowMajorToColumnMajor(_ values: UnsafeMutableBufferPointer<Double>, rows: Int, columns: Int) {
    let count = rows * columns
    precondition(values.count == count, "\(values.count) values for a \(rows)×\(columns) matrix")
    // One row or one column is laid out the same either way.
    guard rows > 1, columns > 1 else { return }
    let modulus = count - 1
    // position·rows < count·rows: in one word unless the matrix is beyond any memory, then in two.
    let fitsOneWord = !count.multipliedReportingOverflow(by: rows).overflow
    var arrived = [UInt64](repeating: 0, count: (count + 63) / 64)
    arrived.withUnsafeMutableBufferPointer { arrived in
      for start in 1..<modulus where arrived[start >> 6] & (1 << UInt64(start & 63)) == 0 {
        var position = start
        var carried = values[start]
        repeat {
          let destination: Int
          if fitsOneWord {
            destination = position &* rows % modulus
          } else {
            let product = position.multipliedFullWidth(by: rows)
            destination = modulus.dividingFullWidth((product.high, product.low)).remainder
          }
          swap(&carried, &values[destination])
          arrived[destination >> 6] |= 1 << UInt64(destination & 63)
          position = destination
        } while position != start
      }
    }
  }
}
