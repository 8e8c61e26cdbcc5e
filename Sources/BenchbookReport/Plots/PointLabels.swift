/// Names points right beside their own marker, on the first side where the name covers no other marker, no other
/// name and no border. Fixed offsets by series number put a name nearer a neighbour than its own point.
struct PointLabels {
  /// A point in axis fractions (0–1 across the plot area) and the name to write beside it.
  struct Point {
    var x: Double
    var y: Double
    var text: String
    /// The marker's half-width in characters.
    var radius: Double = 1
  }

  /// The plot area in characters (widths) and lines (heights), as gnuplot measures `offset char`.
  var columns: Double
  var lines: Double

  /// One side a name can take: gnuplot's justification and offset, and the box it covers relative to its point.
  private struct Side {
    var justification: String
    var dx: Double
    var dy: Double
  }

  private static let sides = [
    Side(justification: "left", dx: 1, dy: 0), Side(justification: "right", dx: -1, dy: 0),
    Side(justification: "center", dx: 0, dy: 1), Side(justification: "center", dx: 0, dy: -1),
    Side(justification: "left", dx: 1, dy: 1), Side(justification: "left", dx: 1, dy: -1),
    Side(justification: "right", dx: -1, dy: 1), Side(justification: "right", dx: -1, dy: -1),
  ]

  /// `set label` commands naming `points[i]` at data coordinates `positions[i]`, numbered from `firstTag`.
  func commands(_ points: [Point], at positions: [(Double, Double)], firstTag: Int = 1) -> String {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)
    func overlap(_ a: Box, _ b: Box) -> Double {
      max(0, min(a.x1, b.x1) - max(a.x0, b.x0)) * max(0, min(a.y1, b.y1) - max(a.y0, b.y0))
    }
    let markers: [Box] = points.map { point in
      let (x, y) = (point.x * columns, point.y * lines)
      let half = point.radius
      return (x - half, y - half / 2, x + half, y + half / 2)
    }
    var placed: [Box] = []
    var text = ""
    for (index, point) in points.enumerated() {
      let (x, y) = (point.x * columns, point.y * lines)
      let width = Double(point.text.count) * 0.62
      let gap = point.radius + 0.3
      var best: (side: Side, offset: (Double, Double), box: Box, cost: Double)? = nil
      for side in Self.sides {
        // The name's box, from its anchor outwards; vertical gaps are in lines, half a marker plus a little air.
        let offset = (side.dx * gap, side.dy * (point.radius / 2 + 0.75))
        let left =
          switch side.justification {
          case "left": x + offset.0
          case "right": x + offset.0 - width
          default: x - width / 2
          }
        let box: Box = (left, y + offset.1 - 0.5, left + width, y + offset.1 + 0.5)
        var cost = 0.0
        for (other, marker) in markers.enumerated() where other != index { cost += overlap(box, marker) }
        for name in placed { cost += 2 * overlap(box, name) }
        let inside = overlap(box, (0, 0, columns, lines))
        cost += 4 * ((box.x1 - box.x0) * (box.y1 - box.y0) - inside)
        if best == nil || cost < best!.cost - 1e-9 { best = (side, offset, box, cost) }
        if cost == 0 { break }
      }
      guard let best else { continue }
      placed.append(best.box)
      let at = "\(LogAxis.number(positions[index].0)),\(LogAxis.number(positions[index].1))"
      let offset = "\(LogAxis.number(best.offset.0)),\(LogAxis.number(best.offset.1))"
      text += "set label \(firstTag + index) \(GnuplotScript.quoted(point.text)) at \(at) "
      text += "\(best.side.justification) offset char \(offset) front\n"
    }
    return text
  }
}
