import Foundation

/// A log-scale axis whose range and labelled tics Benchbook picks itself. Gnuplot labels only powers of ten on a
/// log axis, so data spanning less than a decade (model sizes, say) would get a bare axis.
struct LogAxis {
  var low: Double
  var high: Double

  /// The values' range widened on both sides by `padding` of its log span, and at least by a factor 1.2, so no point
  /// sits on the border and a single value still gets an axis. Non-positive values are left out.
  init(_ values: [Double], padding: Double = 0.08) {
    let positive = values.filter { $0 > 0 && $0.isFinite }
    let (minimum, maximum) = (positive.min() ?? 1, positive.max() ?? 1)
    let widen = max(1.2, pow(maximum / minimum, padding))
    low = minimum / widen
    high = maximum * widen
  }

  /// `[low:high]` for `set xrange`.
  var range: String { "[\(Self.number(low)):\(Self.number(high))]" }

  /// The range's ends nudged inwards: gnuplot drops a line whose both ends it rounds to just outside the range.
  var ends: (low: Double, high: Double) { (low * 1.000001, high / 1.000001) }

  /// Where a value falls along the axis: 0 at `low`, 1 at `high`.
  func fraction(_ value: Double) -> Double { log(value / low) / log(high / low) }

  /// Tic positions: powers of ten over a wide range, 1-2-5 or finer steps over a narrow one, at least three.
  var tics: [Double] {
    let steps: [[Double]] = [[1], [1, 2, 5], [1, 2, 3, 5], [1, 1.5, 2, 3, 4, 5, 6, 7, 8]]
    let first = Int(floor(log10(low)))
    let last = Int(ceil(log10(high)))
    for mantissas in steps {
      let values = (first...last).flatMap { exponent in mantissas.map { $0 * pow(10, Double(exponent)) } }
        .filter { $0 >= low && $0 <= high }
      guard values.count >= 3 || mantissas.count == steps.last!.count else { continue }
      if values.count < 2 { return [sqrt(low * high)] }
      // Over many decades, every second or third power of ten is enough.
      let stride = max(1, (values.count + 7) / 8)
      return values.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
    }
    return []
  }

  /// `set xtics ("2.0 kB" 2000, …)`, each tic named in the axis's unit.
  func gnuplot(_ axis: String, label: (Double) -> String) -> String {
    "set \(axis)range \(range)\nset \(axis)tics ("
      + tics.map { "\(GnuplotScript.quoted(label($0))) \(Self.number($0))" }.joined(separator: ", ") + ")\n"
  }

  /// A number as gnuplot reads it, exact enough for a tic or a range end.
  static func number(_ value: Double) -> String { String(format: "%.10g", value) }
}
