import Foundation

/// Gauss–Legendre quadrature: n nodes and weights on [−1, 1] that integrate polynomials of degree 2n − 1
/// exactly, found by Newton's method on the Legendre polynomial P_n from the usual cosine first guesses.
struct GaussLegendre: Sendable {
  let nodes: [Double]
  let weights: [Double]

  init(points n: Int) {
    precondition(n >= 1, "at least one node")
    var nodes = [Double](repeating: 0, count: n)
    var weights = [Double](repeating: 0, count: n)
    for i in 0..<(n + 1) / 2 {
      var x = cos(Double.pi * (Double(i) + 0.75) / (Double(n) + 0.5))
      var derivative = 0.0
      for _ in 0..<100 {
        // P_n(x) and P_{n−1}(x) by the three-term recurrence, then P_n'(x) from the two.
        var previous = 1.0
        var current = x
        if n >= 2 {
          for j in 2...n {
            let next = (Double(2 * j - 1) * x * current - Double(j - 1) * previous) / Double(j)
            previous = current
            current = next
          }
        }
        derivative = Double(n) * (x * current - previous) / (x * x - 1)
        let step = current / derivative
        x -= step
        if abs(step) < 1e-16 { break }
      }
      nodes[i] = -x
      nodes[n - 1 - i] = x
      let weight = 2 / ((1 - x * x) * derivative * derivative)
      weights[i] = weight
      weights[n - 1 - i] = weight
    }
    self.nodes = nodes
    self.weights = weights
  }

  /// ∫ f over [lower, upper], split into `panels` equal parts with this rule on each.
  func integrate(_ lower: Double, _ upper: Double, panels: Int, _ f: (Double) -> Double) -> Double {
    let width = (upper - lower) / Double(panels)
    var total = 0.0
    for panel in 0..<panels {
      let middle = lower + (Double(panel) + 0.5) * width
      var sum = 0.0
      for (node, weight) in zip(nodes, weights) { sum += weight * f(middle + node * width / 2) }
      total += sum * width / 2
    }
    return total
  }
}
