/// Holm's step-down adjustment of p-values for testing several hypotheses at once (Holm, 1979): the i-th smallest
/// of m p-values is multiplied by m − i + 1, kept at least as large as the one before it, and capped at 1.
/// Rejecting where the adjusted value is below α keeps the family-wise error rate at α.
public enum HolmCorrection {
  /// The adjusted p-values, in the order given; equal p-values are taken in that order.
  public static func adjusted(_ pValues: [Double]) -> [Double] {
    let m = pValues.count
    let order = pValues.indices.sorted { pValues[$0] < pValues[$1] || (pValues[$0] == pValues[$1] && $0 < $1) }
    var adjusted = [Double](repeating: 0, count: m)
    var running = 0.0
    for (position, index) in order.enumerated() {
      running = max(running, min(1, Double(m - position) * pValues[index]))
      adjusted[index] = running
    }
    return adjusted
  }
}
