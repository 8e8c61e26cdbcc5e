/// A gnuplot program and the inline data its `'-'` sources read, in order.
public struct GnuplotScript: Sendable {
  public var text: String
  public var blocks: [[[Double]]]

  public init(text: String = "", blocks: [[[Double]]] = []) {
    self.text = text
    self.blocks = blocks
  }

  /// A gnuplot string literal: double-quoted, with `\` and `"` escaped.
  static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// The look every report plot shares: SVG that scales, a white page, light grid.
  static func preamble(output: String, title: String, width: Int = 760, height: Int = 440) -> String {
    """
    set terminal svg size \(width),\(height) dynamic noenhanced font "Helvetica,13" background "#ffffff"
    set output \(quoted(output))
    set title \(quoted(title))
    set grid ytics lc rgb "#dddddd" lw 1 dt 1
    set border 3 lc rgb "#444444"
    set tics nomirror
    set key outside right top box lc rgb "#bbbbbb"

    """
  }

  /// The key in one row at the foot of the figure, under the x-axis label. `set key below` alone makes room for the
  /// tic labels only, so gnuplot 5.4 draws the key's box over the axis label.
  static let keyUnderAxisLabel = "set bmargin 5\nset key at screen 0.5, screen 0.02 center bottom horizontal\n"

  /// One colour per series, in series order.
  static let colors = [
    "#1b5e9f", "#c0392b", "#2e8540", "#7d3c98", "#b9770e", "#117a8b", "#555555", "#d4548a", "#7a8c1c", "#0a9396",
  ]

  /// Distinct marks and dashes per series, so models stay apart in black and white.
  static func style(_ index: Int) -> String {
    let points = [7, 5, 9, 11, 13, 2, 1, 6, 4, 12]
    return "\(lineStyle(index)) pt \(points[index % points.count])"
  }

  /// A series' colour and dash without a mark, for styles that take none (steps).
  static func lineStyle(_ index: Int) -> String {
    let dashes = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]
    return "lc rgb \"\(colors[index % colors.count])\" dt \(dashes[index % dashes.count])"
  }

  /// `set xtics ("LR" 1, "LDA" 2, …)` for categorical positions.
  static func categoryTics(_ labels: [String]) -> String {
    "set xtics (" + labels.enumerated().map { "\(quoted($1)) \($0 + 1)" }.joined(separator: ", ") + ")\n"
  }
}
