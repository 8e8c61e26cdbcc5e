import BenchbookEvaluation
import BenchbookReport
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct PlotRendererTests {
  /// Collects what a test needs from an SVG: that it parses, its plot groups, its text, and where things sit.
  final class SVGSummary: NSObject, XMLParserDelegate {
    /// A text and its anchor point (gnuplot places each text by a `translate` on the group around it).
    struct Placed {
      var text: String
      var x: Double
      var y: Double
      /// `start`, `middle` or `end`.
      var anchor: String
    }

    var plotGroups = 0
    var texts: [String] = []
    /// Texts outside the plot groups: title, axis and tic labels, `set label` names.
    var freeTexts: [Placed] = []
    /// Texts inside the plot groups: the key's entries.
    var keyTexts: [Placed] = []
    /// Per plot group, the positions of its point marks, the key's sample last.
    var marks: [[(x: Double, y: Double)]] = []
    /// Per plot group, how many separate strokes (`M` moves) its paths draw, the key's sample included.
    var strokes: [Int] = []
    /// The text of the element being read: the parser may hand it over in pieces, split at non-ASCII letters.
    private var text: String? = nil
    private var groupDepth: Int? = nil
    private var translations: [(x: Double, y: Double, anchor: String)?] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      if name == "g", attributes["id"]?.hasPrefix("gnuplot_plot_") == true {
        plotGroups += 1
        groupDepth = 0
        marks.append([])
        strokes.append(0)
      } else if name == "g", let depth = groupDepth {
        groupDepth = depth + 1
      }
      if name == "g" {
        translations.append(
          Self.translation(attributes["transform"]).map { ($0.x, $0.y, attributes["text-anchor"] ?? "start") })
      }
      if name == "use", groupDepth != nil, let at = Self.translation(attributes["transform"]) {
        marks[marks.count - 1].append(at)
      }
      if name == "path", groupDepth != nil, let moves = attributes["d"]?.filter({ $0 == "M" }).count {
        strokes[strokes.count - 1] += moves
      }
      if name == "text" || name == "tspan" { text = text ?? "" }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      if name == "text" || name == "tspan", let string = text {
        text = nil
        texts.append(string)
        if let at = translations.last(where: { $0 != nil }) ?? nil {
          let placed = Placed(text: string, x: at.x, y: at.y, anchor: at.anchor)
          if groupDepth == nil { freeTexts.append(placed) } else { keyTexts.append(placed) }
        }
      }
      if name == "g" {
        translations.removeLast()
        if let depth = groupDepth { groupDepth = depth == 0 ? nil : depth - 1 }
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      text? += string
    }

    /// `translate(12.5,30)` → (12.5, 30).
    static func translation(_ transform: String?) -> (x: Double, y: Double)? {
      guard let transform, let open = transform.range(of: "translate("),
        let close = transform[open.upperBound...].firstIndex(of: ")")
      else { return nil }
      let numbers = transform[open.upperBound..<close].split(separator: ",").compactMap {
        Double($0.trimmingCharacters(in: .whitespaces))
      }
      return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    static func parse(_ url: URL) throws -> SVGSummary {
      let parser = try #require(XMLParser(contentsOf: url))
      let summary = SVGSummary()
      parser.delegate = summary
      #expect(parser.parse(), "\(url.lastPathComponent) parses as XML")
      return summary
    }
  }

  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func everyPlotIsAParsableSVGWithEveryModel() throws {
    let results = try ReportFixture.results()
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcomes = PlotRenderer.draw(results, into: directory.path)
    let labels = results.models.map(\.label)
    let expectedSeries = [
      "log-loss-box": labels.count, "log-loss-folds": labels.count, "timing": 2, "trade-off": labels.count,
      "audit-fold-times": 2, "audit-class-rate": 1,
    ]
    #expect(Set(outcomes.map(\.id)) == Set(expectedSeries.keys))
    for outcome in outcomes {
      #expect(outcome.skippedBecause == nil, "\(outcome.id): \(outcome.skippedBecause ?? "")")
      let url = directory.appendingPathComponent(outcome.fileName)
      let parser = try #require(XMLParser(contentsOf: url))
      let summary = SVGSummary()
      parser.delegate = summary
      #expect(parser.parse(), "\(outcome.fileName) parses as XML")
      #expect(summary.plotGroups == expectedSeries[outcome.id], "\(outcome.fileName) series")
      let text = summary.texts.joined(separator: "\n")
      if outcome.id.hasPrefix("audit-") {
        // The leak audit's plots run along the time column, one line per fold or class.
        #expect(text.contains("launched_at"), "\(outcome.fileName) names the time column")
        #expect(text.contains("2021-"), "\(outcome.fileName) has date tics")
        #expect(
          outcome.id == "audit-fold-times"
            ? text.contains("training rows") && text.contains("test rows") && text.contains("fold")
            : text.contains("class successful"), "\(outcome.fileName) legend")
        continue
      }
      for label in labels { #expect(text.contains(label), "\(outcome.fileName) names \(label)") }
      #expect(text.contains("log-loss") || text.contains("seconds"), "\(outcome.fileName) has a labelled axis")
    }
  }

  /// The plots are drawn side by side: a stand-in gnuplot logs its start and waits (up to 20 s) until every
  /// plot's has started before it draws and logs its end. Drawn one after another, the first would end before
  /// the second started. It reads its script up to `exit`, as gnuplot does, not to the end of its input: a process
  /// another test spawns meanwhile may hold the pipe's write end open.
  @Test func plotsAreDrawnAtOnce() throws {
    let results = try ReportFixture.results()
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let plotCount = PlotRenderer.notDrawn(because: "", for: results).count
    #expect(plotCount > 1)
    let bin = directory.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let log = directory.appendingPathComponent("gnuplot.log").path
    let script = """
      #!/bin/sh
      out=''
      while IFS= read -r line; do
        case "$line" in
          'set output "'*) out=$(printf '%s\\n' "$line" | sed 's/^set output "\\(.*\\)"$/\\1/') ;;
          exit) break ;;
        esac
      done
      echo start >> '\(log)'
      i=0
      while [ "$(grep -c start '\(log)')" -lt \(plotCount) ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
      echo '<svg/>' > "$out"
      echo end >> '\(log)'

      """
    let gnuplot = bin.appendingPathComponent("gnuplot").path
    try ReportFixture.writeExecutable(script, to: gnuplot)
    let plotsDirectory = directory.appendingPathComponent("plots").path
    let outcomes = PlotRenderer.draw(results, into: plotsDirectory, environment: ["PATH": bin.path + ":/usr/bin:/bin"])
    #expect(outcomes.map(\.id) == PlotRenderer.notDrawn(because: "", for: results).map(\.id), "report order")
    #expect(outcomes.allSatisfy { $0.skippedBecause == nil }, "\(outcomes.compactMap(\.skippedBecause))")
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2 * plotCount)
    #expect(lines.prefix(plotCount).allSatisfy { $0 == "start" }, "every plot started before one ended: \(lines)")
  }

  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func auditPlotsAreLeftOutWithoutATimeColumn() throws {
    var results = try ReportFixture.results()
    results.audit?.timeProfile = nil
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcomes = PlotRenderer.draw(results, into: directory.path)
    #expect(!outcomes.contains { $0.id.hasPrefix("audit-") })
    #expect(outcomes.count == 4)
  }

  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func keysSitBelowTheXAxisLabel() throws {
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = PlotRenderer.draw(try ReportFixture.results(), into: directory.path)
    let cases = [
      ("timing.svg", "model (best log-loss first)", "fit (mean, min–max)"),
      ("audit-fold-times.svg", "launched_at (UTC)", "training rows"),
    ]
    for (file, axisLabel, entry) in cases {
      let summary = try SVGSummary.parse(directory.appendingPathComponent(file))
      let axis = try #require(summary.freeTexts.first { $0.text == axisLabel })
      let key = try #require(summary.keyTexts.first { $0.text == entry })
      // Text is placed by its middle; the key's box reaches about 20 px above its entries' middles at 13 pt.
      #expect(key.y > axis.y + 22, "\(file): the key's box starts below the axis label, not over it")
    }
  }

  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func tradeOffNamesSitNearestTheirOwnPoints() throws {
    for results in [try ReportFixture.results(), try ReportFixture.tunedResults()] {
      let directory = try ReportFixture.scratchDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      _ = PlotRenderer.draw(results, into: directory.path)
      let summary = try SVGSummary.parse(directory.appendingPathComponent("trade-off.svg"))
      // One point per model, best first; each group's last mark is its key sample.
      let points = summary.marks.map { $0[0] }
      for (index, label) in RankedTable.rank(results.models).map(\.label).enumerated() {
        let name = try #require(summary.freeTexts.first { $0.text == label })
        let halfWidth = 3.8 * Double(label.count)
        let x = name.anchor == "start" ? name.x + halfWidth : name.anchor == "end" ? name.x - halfWidth : name.x
        let y = name.y - 4.5
        func distance(_ point: (x: Double, y: Double)) -> Double { hypot(point.x - x, point.y - y) }
        let nearest = points.indices.min { distance(points[$0]) < distance(points[$1]) }
        #expect(nearest == index, "\(results.experiment): \(label)'s name is nearest its own point")
      }
    }
  }

  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func paretoPlotsDrawEveryConfigurationTheFrontAndTheBudget() throws {
    var results = try ReportFixture.tunedResults()
    results.budget?.latencyMicrosecondsP99 = 1
    let directory = try ReportFixture.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcomes = PlotRenderer.draw(results, into: directory.path)
    let models = results.models.count
    let configurations = results.models.map { $0.tuning?.configurations.count ?? 1 }.reduce(0, +)
    for (id, budget, unit) in [("pareto-size", "budget (3.0 kB)", "kB"), ("pareto-latency", "budget (1.0 µs)", "µs")] {
      let outcome = try #require(outcomes.first { $0.id == id })
      #expect(outcome.skippedBecause == nil, "\(id): \(outcome.skippedBecause ?? "")")
      let summary = try SVGSummary.parse(directory.appendingPathComponent(outcome.fileName))
      // A series per model, then the front, the shipped configurations, the defaults and the budget.
      #expect(summary.plotGroups == models + 4, "\(id) series")
      let text = summary.texts.joined(separator: "\n")
      for label in results.models.map(\.label) { #expect(text.contains(label), "\(id) names \(label)") }
      for entry in ["Pareto front", "final (shipped)", "defaults", budget, "flat log-loss"] {
        #expect(text.contains(entry), "\(id) shows \(entry)")
      }
      #expect(summary.freeTexts.contains { $0.text.hasSuffix(unit) }, "\(id) labels its tics in \(unit)")
      let marks = summary.marks.prefix(models).map { $0.count - 1 }.reduce(0, +)
      #expect(marks == configurations, "\(id): every configuration, and the untuned model's one fit, is a mark")
      #expect(summary.marks[models + 1].count - 1 == results.models.filter { $0.tuning != nil }.count)
      // The front and the budget line are drawn in the plot, not only as samples in the key.
      #expect(summary.strokes[models] >= 2 && summary.strokes[models + 3] >= 2, "\(id) draws its lines")
    }
  }
}
