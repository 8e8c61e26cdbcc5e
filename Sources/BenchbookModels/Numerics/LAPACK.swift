import COpenBLAS

/// Thin wrappers over the LAPACK and BLAS routines Benchbook's models need (Debian's OpenBLAS).
///
/// Dense decompositions belong to LAPACK, not to hand-written loops. OpenBLAS is
/// pinned to one thread before its first use: a model must be single-threaded,
/// and a threaded reduction could change results with the thread count.
enum LAPACK {
  /// Runs once, on first use from any thread (Swift initialises globals lazily and atomically). Also turns off
  /// LAPACKE's scan of every input for NaN, one function call per element (a noticeable cost on LDA's SVDs of
  /// large data): every caller hands over finite values only, which the models check before.
  private static let configured: Void = {
    openblas_set_num_threads(1)
    LAPACKE_set_nancheck(0)
  }()

  /// What a thin singular value decomposition A = U·diag(S)·Vᵀ keeps: S and Vᵀ.
  struct SingularValueDecomposition {
    /// Singular values, largest first; there are min(rows, columns).
    var values: [Double]
    /// Vᵀ, row-major: `values.count` rows of `columns` entries (right singular vectors as rows).
    var rightVectorsTransposed: [Double]
    var columns: Int
  }

  /// Thin SVD by divide and conquer (`dgesdd`, scipy's default driver); U is not kept.
  /// - Parameters:
  ///   - matrix: the matrix in **column-major** order; destroyed (LAPACK works in place).
  ///   - rows: number of rows.
  ///   - columns: number of columns.
  /// - Complexity: O(rows × columns × min(rows, columns)).
  static func singularValueDecomposition(
    columnMajor matrix: inout [Double], rows: Int, columns: Int
  ) throws(ModelError) -> SingularValueDecomposition {
    precondition(matrix.count == rows * columns, "matrix size does not match its shape")
    _ = configured
    let k = min(rows, columns)
    guard k > 0 else {
      return SingularValueDecomposition(values: [], rightVectorsTransposed: [], columns: columns)
    }
    guard rows <= Int(Int32.max), columns <= Int(Int32.max) else {
      throw ModelError("matrix of \(rows)×\(columns) is too large for LAPACK's 32-bit indices")
    }
    var singular = [Double](repeating: 0, count: k)
    // Vᵀ is k×columns with leading dimension k. With rows >= columns, jobz "O" writes U over
    // the input instead of into a second tall array; otherwise U is small (rows×rows).
    var vt = [Double](repeating: 0, count: k * columns)
    var u = [Double](repeating: 0, count: rows >= columns ? 1 : rows * k)
    let jobz = CChar(UInt8(ascii: rows >= columns ? "O" : "S"))
    let info = matrix.withUnsafeMutableBufferPointer { a in
      singular.withUnsafeMutableBufferPointer { s in
        u.withUnsafeMutableBufferPointer { uBuffer in
          vt.withUnsafeMutableBufferPointer { vtBuffer in
            LAPACKE_dgesdd(
              LAPACK_COL_MAJOR, jobz, Int32(rows), Int32(columns), a.baseAddress, Int32(rows),
              s.baseAddress, uBuffer.baseAddress, Int32(max(rows, 1)), vtBuffer.baseAddress, Int32(k))
          }
        }
      }
    }
    if info < 0 { fatalError("LAPACKE_dgesdd rejected argument \(-info)") }
    if info > 0 { throw ModelError("the singular value decomposition did not converge (dgesdd info \(info))") }
    var rowMajor = [Double](repeating: 0, count: k * columns)
    for r in 0..<k {
      for c in 0..<columns { rowMajor[r * columns + c] = vt[r + c * k] }
    }
    return SingularValueDecomposition(values: singular, rightVectorsTransposed: rowMajor, columns: columns)
  }

  /// Eigen-decomposition of a symmetric matrix by divide and conquer (`dsyevd`).
  /// - Parameters:
  ///   - matrix: row-major order×order; only its upper triangle is read.
  /// - Returns: eigenvalues in ascending order, and eigenvectors as the *columns* of a row-major matrix.
  static func symmetricEigen(_ matrix: [Double], order: Int) throws(ModelError) -> (
    values: [Double], vectors: [Double]
  ) {
    precondition(matrix.count == order * order, "matrix size does not match its order")
    _ = configured
    guard order > 0 else { return ([], []) }
    var vectors = matrix
    var values = [Double](repeating: 0, count: order)
    let info = vectors.withUnsafeMutableBufferPointer { a in
      values.withUnsafeMutableBufferPointer { w in
        LAPACKE_dsyevd(
          LAPACK_ROW_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "U")), Int32(order), a.baseAddress,
          Int32(order), w.baseAddress)
      }
    }
    if info < 0 { fatalError("LAPACKE_dsyevd rejected argument \(-info)") }
    if info > 0 { throw ModelError("the eigen-decomposition did not converge (dsyevd info \(info))") }
    return (values, vectors)
  }

  /// scale · AᵀA for a row-major rows×columns matrix A (`dsyrk`), as a full row-major columns×columns matrix.
  /// - Complexity: O(rows × columns²).
  static func gram(rowMajor a: [Double], rows: Int, columns: Int, scale: Double) -> [Double] {
    precondition(a.count == rows * columns, "matrix size does not match its shape")
    _ = configured
    var out = [Double](repeating: 0, count: columns * columns)
    guard rows > 0, columns > 0 else { return out }
    a.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { c in
        cblas_dsyrk(
          CblasRowMajor, CblasUpper, CblasTrans, blasint(columns), blasint(rows), scale, source.baseAddress,
          blasint(columns), 0, c.baseAddress, blasint(columns))
      }
    }
    for i in 0..<columns {
      for j in 0..<i { out[i * columns + j] = out[j * columns + i] }
    }
    return out
  }

  /// scale·A·Bᵀ for row-major A (rows×inner) and B (columns×inner), by `dgemm`, into row-major `out` whose rows
  /// are `stride` apart: the products of two blocks of rows, as a brute-force neighbour search needs.
  /// - Complexity: O(rows × columns × inner).
  static func multiplyTransposed(
    _ a: UnsafePointer<Double>, rows: Int, _ b: UnsafePointer<Double>, columns: Int, inner: Int, scale: Double,
    into out: UnsafeMutablePointer<Double>, stride: Int
  ) {
    precondition(stride >= columns, "output rows overlap")
    _ = configured
    guard rows > 0, columns > 0, inner > 0 else { return }
    cblas_dgemm(
      CblasRowMajor, CblasNoTrans, CblasTrans, blasint(rows), blasint(columns), blasint(inner), scale, a,
      blasint(inner), b, blasint(inner), 0, out, blasint(stride))
  }

  /// scale·A·Bᵀ in single precision, as `multiplyTransposed` in double (`sgemm`): a brute-force neighbour
  /// search's screen.
  static func multiplyTransposed(
    _ a: UnsafePointer<Float>, rows: Int, _ b: UnsafePointer<Float>, columns: Int, inner: Int, scale: Float,
    into out: UnsafeMutablePointer<Float>, stride: Int
  ) {
    precondition(stride >= columns, "output rows overlap")
    _ = configured
    guard rows > 0, columns > 0, inner > 0 else { return }
    cblas_sgemm(
      CblasRowMajor, CblasNoTrans, CblasTrans, blasint(rows), blasint(columns), blasint(inner), scale, a,
      blasint(inner), b, blasint(inner), 0, out, blasint(stride))
  }

  /// C = A·Bᵀ for row-major A (rows×inner, rows `inner` apart) and B (columns×inner, rows `transposedStride`
  /// apart), into row-major C (rows×columns): a logistic regression's scores from its weights.
  static func multiply(
    _ a: UnsafePointer<Double>, rows: Int, inner: Int, _ b: UnsafePointer<Double>, columns: Int,
    transposedStride: Int, into c: UnsafeMutablePointer<Double>
  ) {
    _ = configured
    guard rows > 0, columns > 0 else { return }
    guard inner > 0 else {
      c.update(repeating: 0, count: rows * columns)
      return
    }
    cblas_dgemm(
      CblasRowMajor, CblasNoTrans, CblasTrans, blasint(rows), blasint(columns), blasint(inner), 1, a,
      blasint(inner), b, blasint(transposedStride), 0, c, blasint(columns))
  }

  /// y = A·x for row-major A (rows×columns) (`dgemv`): two-class logistic regression's scores.
  static func multiply(
    _ a: UnsafePointer<Double>, rows: Int, columns: Int, vector x: UnsafePointer<Double>,
    into y: UnsafeMutablePointer<Double>
  ) {
    _ = configured
    guard rows > 0 else { return }
    guard columns > 0 else {
      y.update(repeating: 0, count: rows)
      return
    }
    cblas_dgemv(CblasRowMajor, CblasNoTrans, blasint(rows), blasint(columns), 1, a, blasint(columns), x, 1, 0, y, 1)
  }

  /// y += scale·Aᵀ·x for row-major A (rows×columns) (`dgemv`): two-class logistic regression's gradient.
  static func accumulateTransposed(
    _ a: UnsafePointer<Double>, rows: Int, columns: Int, vector x: UnsafePointer<Double>, scale: Double,
    into y: UnsafeMutablePointer<Double>
  ) {
    _ = configured
    guard rows > 0, columns > 0 else { return }
    cblas_dgemv(
      CblasRowMajor, CblasTrans, blasint(rows), blasint(columns), scale, a, blasint(columns), x, 1, 1, y, 1)
  }

  /// C = scale·Aᵀ·B (or C + scale·Aᵀ·B when `accumulate`) for row-major A (rows×columns) and B (rows×inner),
  /// into row-major C (columns×inner, rows `stride` apart): a logistic regression's gradient from its residuals.
  static func multiplyTransposedLeft(
    _ a: UnsafePointer<Double>, rows: Int, columns: Int, _ b: UnsafePointer<Double>, inner: Int, scale: Double,
    into c: UnsafeMutablePointer<Double>, stride: Int, accumulate: Bool = false
  ) {
    _ = configured
    guard columns > 0, inner > 0 else { return }
    guard rows > 0 else {
      if !accumulate {
        for r in 0..<columns { (c + r * stride).update(repeating: 0, count: inner) }
      }
      return
    }
    cblas_dgemm(
      CblasRowMajor, CblasTrans, CblasNoTrans, blasint(columns), blasint(inner), blasint(rows), scale, a,
      blasint(columns), b, blasint(inner), accumulate ? 1 : 0, c, blasint(stride))
  }

  /// A·B for row-major A (rows×inner) and B (inner×columns), by `dgemm`, written over `a` itself a block of
  /// rows at a time (`columns <= inner`, so a row's product never lands on rows not yet read): the product of
  /// a fold's rows without a second copy of them. Each block is its own `dgemm`, whose every element is the
  /// same `inner`-term dot product as in one call.
  /// - Complexity: O(rows × inner × columns).
  static func multiplyInPlace(_ a: inout [Double], _ b: [Double], rows: Int, inner: Int, columns: Int) {
    precondition(a.count == rows * inner && b.count == inner * columns, "matrix sizes do not match")
    precondition(columns <= inner, "an in-place product cannot widen the rows")
    _ = configured
    let blockRows = 4096
    var block = [Double](repeating: 0, count: min(rows, blockRows) * columns)
    if rows > 0 && columns > 0 && inner > 0 {
      a.withUnsafeMutableBufferPointer { left in
        b.withUnsafeBufferPointer { right in
          block.withUnsafeMutableBufferPointer { c in
            for first in stride(from: 0, to: rows, by: blockRows) {
              let count = min(blockRows, rows - first)
              cblas_dgemm(
                CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(count), blasint(columns), blasint(inner), 1,
                left.baseAddress! + first * inner, blasint(inner), right.baseAddress, blasint(columns), 0,
                c.baseAddress, blasint(columns))
              (left.baseAddress! + first * columns).update(from: c.baseAddress!, count: count * columns)
            }
          }
        }
      }
    }
    a.removeLast(a.count - rows * columns)
  }
}
