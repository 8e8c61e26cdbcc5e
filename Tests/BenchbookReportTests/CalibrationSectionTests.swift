import BenchbookEvaluation
import Foundation
import Testing

@testable import BenchbookReport

/// The report's calibration table and its sentence, and the series styles that follow a model from report to report.
@Suite struct CalibrationSectionTests {
  /// The campaigns results (two classes) with measures set by hand: one model per verdict.
  static func results() throws -> ExperimentResults {
    var results = try ReportFixture.results()
    let slopes: [String: Double?] = ["LR": 1.02, "LDA": 1.3, "KNN": 0.4, "DT": nil, "NB": 0.85]
    for m in results.models.indices {
      let slope = slopes[results.models[m].label] ?? 1
      results.models[m].calibration = CalibrationRecord(
        positiveClass: "yes", ece: 0.0123, slope: slope, intercept: slope.map { _ in -0.05 }, reliability: 0.001,
        resolution: 0.05, uncertainty: 0.2, meanGap: 0.01, bins: [])
    }
    return results
  }

  @Test func tableAndSentence() throws {
    let markdown = ReportRenderer.markdown(try Self.results(), plots: [])
    let section = try #require(markdown.components(separatedBy: "### Calibration\n").dropFirst().first)
      .components(separatedBy: "\n## ")[0]
    #expect(section.contains("out-of-fold probability of yes"))
    #expect(section.contains("| LR | 0.0123 | 1.020 | -0.050 | 0.0010 | 0.0500 | 0.2000 |"))
    #expect(section.contains("| DT | 0.0123 | – | – |"))
    #expect(section.contains("Over-confident (slope below 0.9): "))
    #expect(section.contains("KNN") && section.contains("NB"))
    #expect(section.contains("under-confident (slope above 1.1): LDA"))
    #expect(section.contains("within the margin: LR"))
    #expect(section.contains("no finite slope (the probabilities separate the outcomes, or never vary): DT"))
  }

  /// Results written before the measures (bins alone) get no section.
  @Test func noSectionWithoutMeasures() throws {
    var results = try ReportFixture.results()
    for m in results.models.indices {
      results.models[m].calibration = CalibrationRecord(positiveClass: "yes", bins: [])
    }
    #expect(!ReportRenderer.markdown(results, plots: []).contains("### Calibration"))
  }

  /// More classes: confidence against accuracy, by the 0.02 margin.
  @Test func moreClassesJudgeConfidence() {
    let record = { (gap: Double) in CalibrationRecord(ece: 0.05, meanGap: gap, bins: []) }
    #expect(CalibrationSection.verdict(record(0.03), twoClasses: false) == .overConfident)
    #expect(CalibrationSection.verdict(record(-0.03), twoClasses: false) == .underConfident)
    #expect(CalibrationSection.verdict(record(0.01), twoClasses: false) == .withinMargin)
  }

  /// A model keeps its style whatever its rank: LR is style 0 first or last, and a second tree takes a free style
  /// past the registry's.
  @Test func stylesFollowTheModel() throws {
    var results = try ReportFixture.results()
    let before = ModelSeries.styleIndices(results)
    #expect(before == ["LR": 0, "LDA": 1, "KNN": 2, "DT": 3, "NB": 4])
    results.models.reverse()
    var second = results.models.first { $0.label == "DT" }!
    second.label = "DT-2"
    results.models.append(second)
    let after = ModelSeries.styleIndices(results)
    #expect(after["LR"] == 0 && after["DT"] == 3 && after["NB"] == 4)
    #expect(after["DT-2"] == 7)
  }
}
