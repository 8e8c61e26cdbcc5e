/// The draws of NumPy's legacy `RandomState` that scikit-learn's histogram gradient boosting makes, on top of
/// `MersenneTwister`: its seed for the validation split and the binning subsample, the shuffles of
/// `permutation`, and the stratified split of `train_test_split`. Matching them draw for draw is what makes
/// the same rows validate, and so the same number of iterations stop early, as in scikit-learn.
extension MersenneTwister {
  /// NumPy's `random_interval(max)`: a uniform integer in `0...max` by masked rejection of 32-bit outputs
  /// (`max` < 2³², which every shuffle here stays under).
  public mutating func interval(_ max: Int) -> Int {
    precondition(max >= 0 && max <= Int(UInt32.max), "interval bound must be in 0...2^32-1")
    if max == 0 { return 0 }
    var mask = UInt32(max)
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    while true {
      let value = next() & mask
      if value <= UInt32(max) { return Int(value) }
    }
  }

  /// `RandomState.shuffle` of a one-dimensional array: Fisher–Yates from the end, each swap partner drawn by
  /// `interval`.
  public mutating func shuffle<T>(_ values: inout [T]) {
    guard values.count > 1 else { return }
    for i in stride(from: values.count - 1, through: 1, by: -1) {
      let j = interval(i)
      values.swapAt(i, j)
    }
  }

  /// `RandomState.permutation(n)`: `0..<n` shuffled.
  public mutating func permutation(_ n: Int) -> [Int] {
    var values = Array(0..<n)
    shuffle(&values)
    return values
  }
}
