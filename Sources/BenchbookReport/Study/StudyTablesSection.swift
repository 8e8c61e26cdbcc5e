import BenchbookEvaluation
import BenchbookStudy
import Foundation

/// The study's tables: scores and ranks, pairs, model sizes, datasets needed, leak audits, experiments.
enum StudyTablesSection {
  static func scores(_ context: StudyContext) -> String {
    let study = context.study
    var table = MarkdownTable(
      [("dataset", .left), ("rows", .right), ("classes", .right)] + study.models.map { ($0, .right) })
    for dataset in study.datasets {
      let experiment = study.experiments[dataset]
      var row = [
        "[\(dataset)](\(experiment?.report ?? "\(dataset)/report.md"))",
        experiment.map { Format.count($0.rows) } ?? "–", experiment.map { String($0.classes) } ?? "–",
      ]
      for model in study.models {
        let score = study.scores[dataset]?[model]
        let rank = study.ranks[dataset]?[model] ?? 0
        let cell = "\(Format.fixed(score, 4)) (\(Format.number(rank)))"
        row.append(rank == 1 ? "**\(cell)**" : cell)
      }
      table.append(row)
    }
    table.append(["**mean rank**", "", ""] + study.models.map { "**\(Format.fixed(context.meanRank($0), 2))**" })
    var text = "## Scores and ranks\n\n"
    text += "Mean \(study.metric) over each experiment's outer folds, and in brackets the model's rank on that "
    text += "dataset (1 for the lowest; ties share their average rank). The best on each dataset is in bold.\n\n"
    return text + table.markdown
  }

  static func pairs(_ context: StudyContext) -> String {
    let study = context.study
    var table = MarkdownTable([
      ("A vs B", .left), ("A wins–ties–losses", .right), ("mean A − B", .right), ("Wilcoxon p", .right),
      ("Holm p", .right), ("P(A better)", .right), ("P(equivalent)", .right), ("P(B better)", .right),
      ("verdict", .left),
    ])
    // Better-ranked model first, pairs in rank order.
    for (i, first) in context.ranked.enumerated() {
      for second in context.ranked[(i + 1)...] {
        guard let (pair, swapped) = context.pair(first, second) else { continue }
        let (wins, losses) = swapped ? (pair.losses, pair.wins) : (pair.wins, pair.losses)
        let (pa, pb) = swapped ? (pair.bayes.pBBetter, pair.bayes.pABetter) : (pair.bayes.pABetter, pair.bayes.pBBetter)
        let difference = swapped ? -pair.meanDifference : pair.meanDifference
        table.append([
          "\(first) vs \(second)", "\(wins)–\(pair.ties)–\(losses)", Format.difference(difference),
          Format.pValue(pair.wilcoxonPValue), Format.pValue(pair.wilcoxonPValueHolm), probability(pa),
          probability(pair.bayes.pEquivalent), probability(pb),
          verdict(
            first, second, pa: pa, equivalent: pair.bayes.pEquivalent, pb: pb, holm: pair.wilcoxonPValueHolm,
            alpha: study.alpha),
        ])
      }
    }
    var text = "## Pairs\n\n"
    text += "Wins, ties and losses count datasets by each experiment's own corrected resampled t-test over its "
    text += "folds at α = \(Format.number(study.alpha)): no significant difference is a tie. The Wilcoxon signed-rank "
    text +=
      "test compares the pair's scores over the datasets (Holm's adjustment over all \(study.pairs.count) pairs). "
    text += "The probabilities are the Bayesian signed-rank test's with a region of practical equivalence of "
    text += "±\(Format.number(study.rope)) nats (Benavoli et al., 2017).\n\n"
    return text + table.markdown
  }

  static func probability(_ p: Double) -> String {
    if p > 0 && p < 0.001 { return "< 0.001" }
    if p < 1 && p > 0.999 { return "> 0.999" }
    return String(format: "%.3f", p)
  }

  static func verdict(
    _ a: String, _ b: String, pa: Double, equivalent: Double, pb: Double, holm: Double, alpha: Double
  ) -> String {
    let decisive = StudyReportRenderer.decisive
    if equivalent >= decisive { return "practically equivalent" }
    if pa >= decisive { return "\(a) practically better" }
    if pb >= decisive { return "\(b) practically better" }
    if holm < alpha { return "differ (Wilcoxon), not decisively in practice" }
    return "undecided"
  }

  static func sizes(_ context: StudyContext) -> String? {
    let study = context.study
    var table = MarkdownTable([
      ("model", .left), ("median Core ML size", .right), ("smallest", .right), ("largest", .right),
      ("datasets", .right),
    ])
    var any = false
    for model in context.ranked {
      let sizes = study.datasets.compactMap { study.experiments[$0]?.modelSizeBytes[model] }.sorted()
      guard !sizes.isEmpty else {
        table.append([model, "–", "–", "–", "0"])
        continue
      }
      any = true
      let middle = sizes.count / 2
      let median = sizes.count % 2 == 1 ? Double(sizes[middle]) : Double(sizes[middle - 1] + sizes[middle]) / 2
      table.append([
        model, Format.bytes(Int(median.rounded())), Format.bytes(sizes[0]), Format.bytes(sizes.last!),
        String(sizes.count),
      ])
    }
    guard any else { return nil }
    var text = "## Model sizes\n\n"
    text += "The exact size of each model's Core ML file, fitted on all of a dataset's rows, across the datasets.\n\n"
    text += table.markdown
    let budgeted = study.datasets.filter { study.experiments[$0]?.budget != nil }
    if budgeted.isEmpty {
      text += "\nNo experiment sets a budget, so none has a best model within one.\n"
    } else {
      var budgets = MarkdownTable([("dataset", .left), ("budget", .left), ("best within it", .left)])
      for dataset in budgeted {
        let budget = study.experiments[dataset]!.budget!
        var limits: [String] = []
        if let size = budget.modelSizeBytes { limits.append("≤ \(Format.bytes(size))") }
        if let latency = budget.latencyMicrosecondsP99 { limits.append("p99 ≤ \(Format.microseconds(latency))") }
        budgets.append([dataset, limits.joined(separator: ", "), budget.bestWithin ?? "none fits"])
      }
      text += "\nThe best model within each experiment's budget (a latency limit makes this a timing):\n\n"
      text += budgets.markdown
    }
    return text
  }

  static func datasetsNeeded(_ context: StudyContext) -> String? {
    let study = context.study
    guard context.ranked.count >= 2 else { return nil }
    let best = context.ranked[0]
    let nemenyi = context.nemenyi
    var table = MarkdownTable([
      ("pair", .left), ("mean-rank difference", .right), ("significant now", .left),
      ("datasets needed (estimate)", .right),
    ])
    for other in context.ranked.dropFirst() {
      let difference = context.meanRank(other) - context.meanRank(best)
      let now = difference >= study.nemenyi.criticalDifference
      let needed = nemenyi.datasetsNeeded(for: difference)
      table.append([
        "\(best) vs \(other)", Format.fixed(difference, 2), now ? "yes" : "no",
        needed.map { now ? "\($0) (met)" : "about \(Format.count($0))" } ?? "never (no difference)",
      ])
    }
    var text = "## How many datasets would settle it?\n\n"
    text += "The critical difference shrinks as 1/√N. Were each mean-rank difference to stay as observed, the "
    text += "Nemenyi test would separate the pair once N reaches q_α² k(k+1) / (6 d²). An estimate only: ranks "
    text += "on new datasets will differ.\n\n"
    return text + table.markdown
  }

  static func audit(_ context: StudyContext) -> String {
    let study = context.study
    var text = "## Leak audits\n\n"
    text += "Each experiment ran its own leak audit; findings are listed worst first, accepted ones marked so "
    text += "(the spec accepts them, with its reason, in the experiment's report).\n\n"
    var table = MarkdownTable([
      ("dataset", .left), ("errors", .left), ("warnings", .left), ("notes", .right),
    ])
    for dataset in study.datasets {
      let findings = study.experiments[dataset]?.audit ?? []
      func named(_ severity: String) -> String {
        let items = findings.filter { $0.severity == severity }.map {
          "\($0.check) [\($0.subject)]\($0.accepted ? " (accepted)" : "")"
        }
        return items.isEmpty ? "–" : items.joined(separator: "; ")
      }
      let notes = findings.filter { $0.severity == "info" }.count
      var errors = named("error")
      if findings.contains(where: { $0.severity == "error" && !$0.accepted }) { errors = "**\(errors)**" }
      table.append([
        "[\(dataset)](\(study.experiments[dataset]?.report ?? ""))", errors, named("warning"), String(notes),
      ])
    }
    return text + table.markdown
  }

  static func experiments(_ context: StudyContext) -> String {
    let study = context.study
    var text = "## Experiments\n\n"
    for dataset in study.datasets {
      guard let experiment = study.experiments[dataset] else { continue }
      text += "- [\(dataset)](\(experiment.report))"
      if let description = experiment.description { text += ": \(description)" }
      text += " (`\(experiment.spec)`; \(Format.count(experiment.rows)) rows, \(experiment.features) features, "
      text += "\(experiment.classes) classes, \(experiment.folds) folds)\n"
    }
    return text
  }
}
