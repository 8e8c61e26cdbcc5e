/// A decision-tree split that compares float32-rounded values, restated for
/// a comparison of unrounded doubles.
///
/// Benchbook's tree, like scikit-learn's, sends a row left when
/// `Float(x) <= t`. Core ML compares the input value with the node's double.
/// Let a be the largest float32 not above t and b the next float32 up: then
/// `Float(x) <= t` exactly when `Float(x) <= a`, which is when x lies below the
/// midpoint m of a and b, or on m when rounding m to even gives a. So the node
/// `x <= m` (a even) or `x < m` (a odd) decides every double exactly as the
/// fitted tree does; and since no float32 lies strictly between a and m, it
/// also decides correctly if a runtime rounds x to float32 first.
enum Float32Threshold {
  static func branch(forThreshold t: Double) -> (behavior: TreeEnsembleParameters.NodeBehavior, value: Double) {
    guard !t.isNaN else { return (.branchOnValueLessThan, -.infinity) }
    var a = Float(t)
    if Double(a) > t { a = a.nextDown }
    if a == .infinity { return (.branchOnValueLessThanEqual, .infinity) }
    let largest = Double(Float.greatestFiniteMagnitude)
    let halfUlpAtLargest = Double(Float.greatestFiniteMagnitude.ulp) / 2
    // Beyond the largest float32, values round to ±infinity (the largest float32 is odd).
    if a == -.infinity { return (.branchOnValueLessThanEqual, -(largest + halfUlpAtLargest)) }
    if a == .greatestFiniteMagnitude { return (.branchOnValueLessThan, largest + halfUlpAtLargest) }
    let b = a.nextUp
    let midpoint = (Double(a) + Double(b)) / 2  // exact: both are float32
    let aIsEven = a.bitPattern & 1 == 0
    return (aIsEven ? .branchOnValueLessThanEqual : .branchOnValueLessThan, midpoint)
  }
}
