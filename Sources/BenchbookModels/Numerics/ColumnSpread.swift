/// Per-column centre and spread of a row-major matrix, as logistic regression's solvers precondition with them:
/// the mean (or zero when uncentred) and the root mean square deviation from it, a spread of zero or one that is
/// not finite read as 1 so a constant column is left unscaled.
struct ColumnSpread {
  var center: [Double]
  var scale: [Double]

  init(_ values: UnsafeBufferPointer<Double>, rows n: Int, columns d: Int, centred: Bool) {
    var center = [Double](repeating: 0, count: d)
    var spread = [Double](repeating: 0, count: d)
    if centred {
      for r in 0..<n {
        for c in 0..<d { center[c] += values[r * d + c] }
      }
      for c in 0..<d { center[c] /= Double(n) }
    }
    for r in 0..<n {
      for c in 0..<d {
        let deviation = values[r * d + c] - center[c]
        spread[c] += deviation * deviation
      }
    }
    self.center = center
    scale = spread.map { sum in
      let s = (sum / Double(n)).squareRoot()
      return s > 0 && s.isFinite ? s : 1
    }
  }
}
