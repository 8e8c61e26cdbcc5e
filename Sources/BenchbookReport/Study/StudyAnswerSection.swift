import BenchbookEvaluation
import BenchbookStudy

/// The title and the answer: which model ranks best, whether Friedman's test rejects equality, which pairs the
/// Nemenyi test separates, which are practically equivalent, and which experiments' leak audits stand against
/// their scores.
enum StudyAnswerSection {
  static func render(_ context: StudyContext) -> String {
    let study = context.study
    let best = context.ranked[0]
    let k = study.models.count
    let n = study.datasets.count
    var text = "# Study: \(study.study)\n\n"
    if let description = study.description { text += "> \(description)\n\n" }
    text += "**\(best) ranks best** over \(n) datasets, with a mean rank of \(Format.fixed(context.meanRank(best), 2)) "
    text +=
      "of \(k) (\(context.ranked.dropFirst().map { "\($0) \(Format.fixed(context.meanRank($0), 2))" }.joined(separator: ", "))). "
    let friedman = study.friedman
    let rejects = friedman.pValue < study.alpha
    text += "Friedman's test \(rejects ? "**rejects**" : "does **not** reject") that the \(k) models perform alike "
    text += "at α = \(Format.number(study.alpha)) (χ² = \(Format.fixed(friedman.statistic, 2)), "
    text += "p \(pText(friedman.pValue)); Iman–Davenport F = "
    text +=
      "\(friedman.imanDavenportStatistic.map { Format.fixed($0, 2) } ?? "∞"), p \(pText(friedman.imanDavenportPValue))). "
    let cd = study.nemenyi.criticalDifference
    var separated: [String] = []
    for (i, a) in context.ranked.enumerated() {
      for b in context.ranked[(i + 1)...] where context.meanRank(b) - context.meanRank(a) >= cd {
        separated.append("\(a) over \(b)")
      }
    }
    if !rejects {
      text += "Without that, the Nemenyi comparisons below are descriptive only. "
    } else if separated.isEmpty {
      text += "Yet no two mean ranks differ by the Nemenyi critical difference (\(Format.fixed(cd, 2))). "
    } else {
      text += "By the Nemenyi test (critical difference \(Format.fixed(cd, 2))): \(studyList(separated)). "
    }
    let equivalent = study.pairs.filter { $0.bayes.pEquivalent >= StudyReportRenderer.decisive }
    let rope = Format.number(study.rope)
    if equivalent.isEmpty {
      text += "No pair is practically equivalent (within ±\(rope) nats, with probability ≥ 0.95)"
    } else {
      text += "Practically equivalent (within ±\(rope) nats, with probability ≥ 0.95): "
      text += studyList(equivalent.map { "\($0.a) and \($0.b)" })
    }
    let better = study.pairs.compactMap { pair -> String? in
      if pair.bayes.pABetter >= StudyReportRenderer.decisive { return "\(pair.a) over \(pair.b)" }
      if pair.bayes.pBBetter >= StudyReportRenderer.decisive { return "\(pair.b) over \(pair.a)" }
      return nil
    }
    text += better.isEmpty ? ".\n\n" : "; practically better: \(studyList(better)).\n\n"
    let flagged = context.flagged
    if flagged.isEmpty {
      text += "No experiment's leak audit left an error standing.\n"
    } else {
      let names = flagged.map { "[\($0)](\(study.experiments[$0]?.report ?? "\($0)/report.md"))" }
      text += "**The leak audit left an error standing in \(studyList(names))**: "
      text += "\(flagged.count == 1 ? "its scores" : "their scores") may be flattered by a leak; "
      text += "read \(flagged.count == 1 ? "its report" : "their reports") before trusting this study's ranks.\n"
    }
    return text
  }

  /// `= 0.031` or `< 0.001`.
  static func pText(_ p: Double) -> String {
    let formatted = Format.pValue(p)
    return formatted.hasPrefix("<") ? formatted : "= \(formatted)"
  }
}
