import BenchbookEvaluation
import BenchbookReport
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct PlotRendererTests {
  /// Collects what a test needs from an SVG: that it parses, its plot groups and its text.
  final class SVGSummary: NSObject, XMLParserDelegate {
    var plotGroups = 0
    var texts: [String] = []
    private var inText = false

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      if name == "g", attributes["id"]?.hasPrefix("gnuplot_plot_") == true { plotGroups += 1 }
      if name == "text" || name == "tspan" { inText = true }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      if name == "text" || name == "tspan" { inText = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if inText { texts.append(string) }
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
}
