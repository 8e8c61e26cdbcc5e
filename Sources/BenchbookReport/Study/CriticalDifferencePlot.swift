import BenchbookEvaluation
import BenchbookStudy
import Foundation

/// Demšar's critical-difference diagram: the models' mean ranks on an axis from 1 (best) to k, each model's name
/// on its own row (the better half to the left, the worse to the right) so no two names meet, bars joining the
/// models the Nemenyi test cannot tell apart, and the critical difference drawn above, to the axis's scale.
///
/// Everything is placed in pixels and drawn with `set arrow` and `set label` over a plot area that fills the
/// page, whose x range is chosen so one rank is `scale` pixels wide; names are measured at `characterWidth`.
struct CriticalDifferencePlot: StudyPlot {
  let id = "critical-difference"
  let title = "Critical-difference diagram"

  static let width = 760.0
  /// Helvetica at 13 px averages a little under 7 px a character; this errs wide so names keep clear of the page.
  static let characterWidth = 7.6
  static let rowHeight = 24.0
  static let barGap = 9.0

  func script(_ study: StudyResults, output: String) -> GnuplotScript {
    let k = study.models.count
    let ranks = study.models.map { study.meanRanks[$0] ?? 0 }
    let order = study.models.indices.sorted { ranks[$0] != ranks[$1] ? ranks[$0] < ranks[$1] : $0 < $1 }
    let cd = study.nemenyi.criticalDifference
    let leftCount = (k + 1) / 2
    let names = order.map { "\(study.models[$0]) (\(String(format: "%.2f", ranks[$0])))" }
    let leftWidth = names.prefix(leftCount).map { Double($0.count) }.max() ?? 0
    let rightWidth = names.dropFirst(leftCount).map { Double($0.count) }.max() ?? 0
    // Pixels: margins for the names, then the axis from rank 1 to the larger of k and 1 + CD.
    let leftSpace = leftWidth * Self.characterWidth + 40
    let rightSpace = rightWidth * Self.characterWidth + 40
    let span = max(Double(k), 1 + cd) - 1
    let scale = (Self.width - leftSpace - rightSpace) / max(span, 1)
    let xmin = 1 - leftSpace / scale
    let xmax = 1 + span + rightSpace / scale
    let groups = CliqueBars.groups(sortedRanks: order.map { ranks[$0] }, criticalDifference: cd)
    // Rows from the top, in pixels: title, the CD bar, the axis with its numbers, the clique bars, then the names.
    let cdY = 52.0
    let axisY = 98.0
    let firstBarY = axisY + 14
    let namesTop = firstBarY + Double(groups.count) * Self.barGap + 14
    let rows = max(leftCount, k - leftCount)
    let height = (namesTop + Double(rows) * Self.rowHeight + 12).rounded()
    func y(_ pixels: Double) -> String { LogAxis.number(-pixels) }
    func x(_ rank: Double) -> String { LogAxis.number(rank) }
    func px(_ pixels: Double) -> Double { pixels / scale }

    var text = """
      set terminal svg size \(Int(Self.width)),\(Int(height)) dynamic noenhanced font "Helvetica,13" background "#ffffff"
      set output \(GnuplotScript.quoted(output))
      set lmargin at screen 0
      set rmargin at screen 1
      set tmargin at screen 1
      set bmargin at screen 0
      unset border
      unset tics
      unset key
      set xrange [\(x(xmin)):\(x(xmax))]
      set yrange [\(y(height)):0]
      set label 1 \(GnuplotScript.quoted("Mean rank over \(study.datasets.count) datasets (1 is best)")) at \(x((xmin + xmax) / 2)),\(y(20)) center font "Helvetica,14"

      """
    var arrow = 0
    var label = 1
    func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, width: Double = 1, color: String = "#333333") {
      arrow += 1
      text +=
        "set arrow \(arrow) from \(x(x1)),\(y(y1)) to \(x(x2)),\(y(y2)) nohead lw \(width) lc rgb \"\(color)\" front\n"
    }
    func write(_ words: String, _ at: Double, _ top: Double, _ justification: String, color: String = "#222222") {
      label += 1
      text +=
        "set label \(label) \(GnuplotScript.quoted(words)) at \(x(at)),\(y(top)) \(justification) tc rgb \"\(color)\" front\n"
    }
    // The critical difference, to scale, from rank 1.
    line(1, cdY, 1 + cd, cdY, width: 2)
    line(1, cdY - 5, 1, cdY + 5, width: 2)
    line(1 + cd, cdY - 5, 1 + cd, cdY + 5, width: 2)
    write(
      "CD = \(String(format: "%.2f", cd)) (α = \(Format.number(study.nemenyi.alpha)))", 1 + cd / 2, cdY - 12, "center")
    // The axis, with a tick and a number at every whole rank and a short tick at every half.
    line(1, axisY, Double(k), axisY, width: 1.5)
    for step in 0...(2 * (k - 1)) {
      let rank = 1 + Double(step) / 2
      let whole = step % 2 == 0
      line(rank, axisY, rank, axisY - (whole ? 8 : 4))
      if whole { write(String(Int(rank)), rank, axisY - 18, "center") }
    }
    // Bars joining models the test cannot tell apart, each on its own row just under the axis.
    for (row, group) in groups.enumerated() {
      let barY = firstBarY + Double(row) * Self.barGap
      line(
        ranks[order[group.lowerBound]] - px(4), barY, ranks[order[group.upperBound]] + px(4), barY, width: 4,
        color: "#c0392b")
    }
    // Each model: down from its rank to its row, then out to its side, its name beyond.
    for (position, model) in order.enumerated() {
      let rank = ranks[model]
      let left = position < leftCount
      let row = left ? position : k - 1 - position
      let rowY = namesTop + Double(row) * Self.rowHeight + Self.rowHeight / 2
      let end = left ? 1 - px(18) : Double(k) + px(18)
      line(rank, axisY, rank, rowY)
      line(rank, rowY, end, rowY)
      write(names[position], left ? end - px(6) : end + px(6), rowY, left ? "right" : "left")
    }
    text += "plot '-' using 1:2 with dots lc rgb \"#ffffff\" notitle\n"
    return GnuplotScript(text: text, blocks: [[[xmin, -1]]])
  }
}
