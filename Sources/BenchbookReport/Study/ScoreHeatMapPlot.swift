import BenchbookEvaluation
import BenchbookStudy
import Foundation

/// Every dataset's scores at a glance: one row per dataset, one column per model, each cell coloured by the
/// model's rank on that dataset (dark for the best) and showing its score.
struct ScoreHeatMapPlot: StudyPlot {
  let id = "scores"
  let title = "Scores and ranks on each dataset"

  static let rowHeight = 22.0
  static let columnWidth = 92.0

  func script(_ study: StudyResults, output: String) -> GnuplotScript {
    let k = study.models.count
    let n = study.datasets.count
    let longestName = Double(study.datasets.map(\.count).max() ?? 4)
    let left = longestName * 7.6 + 24
    let width = (left + Double(k) * Self.columnWidth + 110).rounded()
    let top = 56.0
    let bottom = 30.0
    let height = (top + Double(n) * Self.rowHeight + bottom).rounded()
    var text = """
      set terminal svg size \(Int(width)),\(Int(height)) dynamic noenhanced font "Helvetica,12" background "#ffffff"
      set output \(GnuplotScript.quoted(output))
      set title \(GnuplotScript.quoted("\(study.metric) on each dataset; colour: rank (1 is best)"))
      set lmargin at screen \(LogAxis.number(left / width))
      set rmargin at screen \(LogAxis.number((left + Double(k) * Self.columnWidth) / width))
      set tmargin at screen \(LogAxis.number(1 - top / height))
      set bmargin at screen \(LogAxis.number(bottom / height))
      set border 0
      unset key
      set xrange [0.5:\(Double(k) + 0.5)]
      set yrange [\(Double(n) + 0.5):0.5]
      set x2tics (\(study.models.enumerated().map { "\(GnuplotScript.quoted($1)) \($0 + 1)" }.joined(separator: ", "))) scale 0
      unset xtics
      set ytics (\(study.datasets.enumerated().map { "\(GnuplotScript.quoted($1)) \($0 + 1)" }.joined(separator: ", "))) scale 0
      set cbrange [1:\(max(k, 2))]
      set cbtics 1
      set cblabel "rank"
      set palette defined (0 "#0b3c6e", 0.5 "#7fb0d8", 1 "#f4f4f4")

      """
    var cells: [[Double]] = []
    var label = 0
    for (row, dataset) in study.datasets.enumerated() {
      for (column, model) in study.models.enumerated() {
        let rank = study.ranks[dataset]?[model] ?? Double(k)
        cells.append([Double(column + 1), Double(row + 1), rank])
        label += 1
        let score = study.scores[dataset]?[model].map { Self.short($0) } ?? "–"
        // Dark cells get white text.
        let color = (rank - 1) / Double(max(k - 1, 1)) < 0.45 ? "#ffffff" : "#111111"
        text +=
          "set label \(label) \(GnuplotScript.quoted(score)) at \(column + 1),\(row + 1) center front tc rgb \"\(color)\"\n"
      }
    }
    text += "plot '-' using 1:2:3 with image pixels\n"
    return GnuplotScript(text: text, blocks: [cells])
  }

  /// Three significant digits, at most five characters where it can: 0.0123, 0.456, 1.23, 28.3.
  static func short(_ value: Double) -> String {
    guard value.isFinite else { return Format.fixed(value, 0) }
    if value == 0 { return "0" }
    if value >= 100 { return String(format: "%.0f", value) }
    if value >= 10 { return String(format: "%.1f", value) }
    if value >= 1 { return String(format: "%.2f", value) }
    if value >= 0.001 { return String(format: "%.3g", value) }
    return String(format: "%.1e", value)
  }
}
