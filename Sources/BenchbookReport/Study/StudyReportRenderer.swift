import BenchbookEvaluation
import BenchbookStudy
import Foundation

/// Turns study.json into `study.md`: the answer first, then the diagram, the scores, the pairs, model sizes, how
/// many datasets would settle what is unsettled, the leak audits and links to every experiment's report. A pure
/// function of the study's results and what became of its plots.
public enum StudyReportRenderer {
  public static let fileName = "study.md"

  /// A pair is called practically equivalent, or one model practically better, at this posterior probability.
  static let decisive = 0.95

  public static func markdown(_ study: StudyResults, plots: [PlotOutcome]) -> String {
    let context = StudyContext(study: study, plots: plots)
    let sections: [String?] = [
      StudyAnswerSection.render(context), StudyFigureSections.diagram(context), StudyFigureSections.scores(context),
      StudyTablesSection.scores(context), StudyTablesSection.pairs(context), StudyTablesSection.sizes(context),
      StudyTablesSection.datasetsNeeded(context), StudyTablesSection.audit(context),
      StudyTablesSection.experiments(context), StudyMethodSection.render(context),
    ]
    return sections.compactMap { $0 }.joined(separator: "\n")
  }
}

/// What every part of a study's report reads.
struct StudyContext {
  let study: StudyResults
  let plots: [PlotOutcome]
  /// Model labels by mean rank, best first (ties in the study's order).
  let ranked: [String]

  init(study: StudyResults, plots: [PlotOutcome]) {
    self.study = study
    self.plots = plots
    ranked = study.models.enumerated().sorted { a, b in
      let (ra, rb) = (study.meanRanks[a.element] ?? 0, study.meanRanks[b.element] ?? 0)
      return ra != rb ? ra < rb : a.offset < b.offset
    }.map(\.element)
  }

  var nemenyi: NemenyiTest {
    NemenyiTest(models: study.models.count, datasets: study.datasets.count, alpha: study.nemenyi.alpha)
  }

  func meanRank(_ model: String) -> Double { study.meanRanks[model] ?? 0 }

  /// The pair's record with `first` as a, whichever order the study holds it in.
  func pair(_ first: String, _ second: String) -> (record: PairRecord, swapped: Bool)? {
    if let record = study.pairs.first(where: { $0.a == first && $0.b == second }) { return (record, false) }
    if let record = study.pairs.first(where: { $0.a == second && $0.b == first }) { return (record, true) }
    return nil
  }

  /// Experiments whose leak audit left an error nobody accepted.
  var flagged: [String] {
    study.datasets.filter { dataset in
      study.experiments[dataset]?.audit.contains { $0.severity == "error" && !$0.accepted } ?? false
    }
  }

  func plot(_ id: String) -> PlotOutcome? { plots.first { $0.id == id } }
}

/// "A, B and C".
func studyList(_ items: [String]) -> String {
  switch items.count {
  case 0: ""
  case 1: items[0]
  default: items.dropLast().joined(separator: ", ") + " and " + items.last!
  }
}
