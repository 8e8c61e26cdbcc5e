/// NumPy's pairwise summation of a contiguous float64 array (`np.sum`, `np.mean`): blocks of up to 128
/// summed in eight interleaved lanes, halves above that. scikit-learn's root sums and its early-stopping
/// losses are such sums, so their last bits match when added in this order.
public enum PairwiseSum {
  public static func sum(_ values: UnsafeBufferPointer<Double>) -> Double {
    sum(values.baseAddress!, values.count)
  }

  public static func sum(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.withUnsafeBufferPointer { sum($0) }
  }

  static func sum(_ a: UnsafePointer<Double>, _ n: Int) -> Double {
    if n < 8 {
      var result = 0.0
      for i in 0..<n { result += a[i] }
      return result
    } else if n <= 128 {
      var r = (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
      var i = 8
      while i < n - n % 8 {
        r.0 += a[i]
        r.1 += a[i + 1]
        r.2 += a[i + 2]
        r.3 += a[i + 3]
        r.4 += a[i + 4]
        r.5 += a[i + 5]
        r.6 += a[i + 6]
        r.7 += a[i + 7]
        i += 8
      }
      var result = ((r.0 + r.1) + (r.2 + r.3)) + ((r.4 + r.5) + (r.6 + r.7))
      while i < n {
        result += a[i]
        i += 1
      }
      return result
    } else {
      var half = n / 2
      half -= half % 8
      return sum(a, half) + sum(a + half, n - half)
    }
  }
}
