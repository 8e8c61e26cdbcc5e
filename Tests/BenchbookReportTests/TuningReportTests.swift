import BenchbookEvaluation
import BenchbookReport
import Foundation
import Testing

/// The report of tuned models (`Fixtures/iris-tuned.yaml`): what tuning chose, what choosing costs, and what fits
/// the budget.
@Suite struct TuningReportTests {
  static func markdown(_ results: ExperimentResults) -> String {
    ReportRenderer.markdown(results, plots: ReportFixture.drawnPlots(for: results))
  }

  /// The text of one tuned model's subsection, up to the next heading.
  static func subsection(_ label: String, in markdown: String) throws -> String {
    let start = try #require(markdown.range(of: "#### \(label): "))
    let rest = markdown[start.upperBound...]
    return String(rest[..<(rest.range(of: "\n#")?.lowerBound ?? rest.endIndex)])
  }

  @Test func tuningSectionComesBetweenResultsAndTiming() throws {
    let markdown = Self.markdown(try ReportFixture.tunedResults())
    let positions = ["## Results\n", "### Tuning\n", "### Timing\n", "## Plots\n"].map {
      markdown.range(of: $0)?.lowerBound
    }
    #expect(positions.allSatisfy { $0 != nil })
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    // Tuned models only; LDA has fixed settings.
    #expect(!markdown.contains("#### LDA"))
    for label in ["LR", "KNN", "NB", "DT"] { #expect(markdown.contains("#### \(label): ")) }
  }

  @Test func tuningSectionExplainsAndMeasuresTheSelectionOptimism() throws {
    let markdown = Self.markdown(try ReportFixture.tunedResults())
    #expect(markdown.contains("The best flat score is picked on the same folds it is scored on, so it is optimistic"))
    let lr = try Self.subsection("LR", in: markdown)
    #expect(lr.contains("- **Search:** C in {0.01, 0.1, 1, 10, 100}: 5 configurations"))
    #expect(lr.contains("5-fold stratified k-fold"))
    #expect(
      lr.contains(
        "nested 0.0610 ± 0.0755 against 0.0571 ± 0.0734 for the best flat configuration (C=100): "
          + "selection optimism 0.0040."))
    let knn = try Self.subsection("KNN", in: markdown)
    #expect(knn.contains("(n_neighbors=5, weights=distance): selection optimism 0.014."))
  }

  @Test func tuningSectionGroupsEachFoldsChoiceAndMeasuresStability() throws {
    let markdown = Self.markdown(try ReportFixture.tunedResults())
    let lr = try Self.subsection("LR", in: markdown)
    #expect(lr.contains("- **Chosen per outer fold:** folds 1–5, 7–10: C=100; fold 6: C=10."))
    #expect(lr.contains("- **Stability:** 90.0% of the folds (9 of 10) chose the most frequent configuration, C=100."))
    #expect(lr.contains("- **Final:** C=100, chosen the same way on all rows"))
    let knn = try Self.subsection("KNN", in: markdown)
    #expect(
      knn.contains(
        "folds 1, 3–4: n_neighbors=15, weights=distance; folds 2, 5–10: n_neighbors=5, weights=distance."))
    // Only the searched settings, not the fixed `algorithm` or `leaf_size`.
    #expect(knn.contains("- **Final:** n_neighbors=5, weights=distance, chosen"))
    #expect(knn.contains("- **Inside the budget:** no configuration fits on any outer fold"))
    let dt = try Self.subsection("DT", in: markdown)
    #expect(dt.contains("folds 1–10: max_depth=2."))
    #expect(dt.contains("100.0% of the folds (10 of 10)"))
  }

  @Test func tuningSectionTablesEveryConfiguration() throws {
    let results = try ReportFixture.tunedResults()
    let markdown = Self.markdown(results)
    let lr = try Self.subsection("LR", in: markdown)
    #expect(lr.contains("| C | flat log-loss | Core ML size | p99 latency | within budget | notes |"))
    #expect(lr.contains("| 1 | 0.1413 ± 0.0439 | 2.2 kB |"))
    #expect(lr.contains("| yes | defaults |"))
    #expect(lr.contains("| yes | chosen in 1 fold |"))
    #expect(lr.contains("| yes | chosen in 9 folds, **final**, best flat |"))
    let knn = try Self.subsection("KNN", in: markdown)
    #expect(knn.contains("| n_neighbors | weights | flat log-loss |"))
    let rows = knn.split(separator: "\n").filter { $0.hasPrefix("| 1") || $0.hasPrefix("| 5") }
    #expect(rows.count == 6, "one row per configuration")
    #expect(rows.allSatisfy { $0.contains("| no |") }, "KNN's files are all over 3 kB")

    // Without a budget, no budget column and no budget choice.
    var unbudgeted = results
    unbudgeted.budget = nil
    let plain = try Self.subsection("LR", in: Self.markdown(unbudgeted))
    #expect(plain.contains("| C | flat log-loss | Core ML size | p99 latency | notes |"))
    #expect(!plain.contains("Inside the budget"))
  }

  @Test func headlineNamesTheBestTunedModelAgainstItsDefaults() throws {
    let markdown = Self.markdown(try ReportFixture.tunedResults())
    let paragraphs = markdown.components(separatedBy: "\n\n")
    #expect(paragraphs[2].contains("**Linear discriminant analysis (LDA) scores best**"), "today's answer first")
    #expect(
      paragraphs[3]
        == "Of the tuned models, **logistic regression (LR)** scores best, with a nested log-loss of 0.0610 "
        + "(C=100 on all rows); with its defaults (C=1) it scores 0.1413, so tuning lowers its log-loss by 0.080.")
  }

  @Test func headlineNamesTheBestModelInsideTheBudget() throws {
    var results = try ReportFixture.tunedResults()
    let paragraphs = Self.markdown(results).components(separatedBy: "\n\n")
    #expect(
      paragraphs[4]
        == "**Inside the budget** (a Core ML file of at most 3.0 kB), **linear discriminant analysis (LDA)** scores "
        + "best, with a log-loss of 0.0486: the best model overall fits.")

    // Without LDA, a tuned model wins inside the budget by its nested score when choosing only what fits.
    results.models.removeAll { $0.label == "LDA" }
    let tuned = Self.markdown(results)
    #expect(
      tuned.contains(
        "**Inside the budget** (a Core ML file of at most 3.0 kB), **logistic regression (LR)** scores best "
          + "choosing only among its configurations inside it, with a nested log-loss of 0.0610."))
    #expect(tuned.contains("It was tuned, so its score is nested"), "the winner's own tuning, said once")
  }

  @Test func headlineSaysWhenNoModelFitsTheBudget() throws {
    var results = try ReportFixture.tunedResults()
    results.budget!.modelSizeBytes = 1000
    results.budget!.latencyMicrosecondsP99 = 0.1
    for index in results.models.indices {
      results.models[index].withinBudget = false
      results.models[index].tuning?.budgetLogLoss = nil
    }
    let markdown = Self.markdown(results)
    #expect(
      markdown.contains(
        "**No model fits inside the budget** (a Core ML file of at most 1.0 kB and a one-row p99 latency of at most "
          + "0.10 µs)"))
    #expect(!markdown.contains("**Inside the budget**"))
  }

  @Test func untunedResultsGetNoTuningSectionAndNoParetoPlots() throws {
    var results = try ReportFixture.results()
    let markdown = Self.markdown(results)
    #expect(!markdown.contains("### Tuning"))
    #expect(!markdown.contains("tuned") && !markdown.contains("budget"))
    #expect(!ReportFixture.drawnPlots(for: results).contains { $0.id.hasPrefix("pareto-") })

    // A budget alone adds only its sentence to the headline.
    results.budget = try ReportFixture.tunedResults().budget
    for index in results.models.indices { results.models[index].withinBudget = results.models[index].label != "LR" }
    let budgeted = Self.markdown(results)
    #expect(budgeted.contains("**Inside the budget** (a Core ML file of at most 3.0 kB), **linear discriminant"))
    #expect(!budgeted.contains("### Tuning"))
  }

  @Test func paretoPlotsAreListedWithTheirCaptions() throws {
    let markdown = Self.markdown(try ReportFixture.tunedResults())
    #expect(markdown.contains("![Every configuration: log-loss against model size](pareto-size.svg)"))
    #expect(markdown.contains("![Every configuration: log-loss against latency](pareto-latency.svg)"))
    #expect(markdown.contains("The step line is the Pareto front"))
  }
}
