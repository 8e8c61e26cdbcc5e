/// Spearman's rank correlation: Pearson's correlation of the two variables'
/// ranks, tied values sharing their average rank (scipy's `spearmanr`).
public enum SpearmanCorrelation {
  /// - Returns: ρ in [−1, 1], or `nil` when either variable is constant or there are fewer than two pairs.
  public static func rho(_ x: [Double], _ y: [Double]) -> Double? {
    precondition(x.count == y.count, "paired values")
    guard x.count >= 2 else { return nil }
    return pearson(SortedOrder.averageRanks(x), SortedOrder.averageRanks(y))
  }

  static func pearson(_ x: [Double], _ y: [Double]) -> Double? {
    let n = Double(x.count)
    let meanX = x.reduce(0, +) / n
    let meanY = y.reduce(0, +) / n
    var sxy = 0.0
    var sxx = 0.0
    var syy = 0.0
    for i in x.indices {
      let dx = x[i] - meanX
      let dy = y[i] - meanY
      sxy += dx * dy
      sxx += dx * dx
      syy += dy * dy
    }
    guard sxx > 0, syy > 0 else { return nil }
    return max(-1, min(1, sxy / (sxx * syy).squareRoot()))
  }
}
