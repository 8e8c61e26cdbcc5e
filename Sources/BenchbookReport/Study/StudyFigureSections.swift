import BenchbookEvaluation
import BenchbookStudy

/// The two figures, each with the words that say how to read it (and why it is missing, when it is).
enum StudyFigureSections {
  static func diagram(_ context: StudyContext) -> String {
    var text = "## Critical-difference diagram\n\n"
    text += figure(context, "critical-difference", alt: "Mean ranks with the Nemenyi critical difference")
    let study = context.study
    text += "Each model hangs from its mean rank over the \(study.datasets.count) datasets (1 is best). "
    text += "A red bar joins models whose mean ranks differ by less than the critical difference "
    text += "CD = q_α √(k(k+1)/(6N)) = \(Format.fixed(study.nemenyi.qAlpha, 3)) × "
    text += "√(\(study.models.count)·\(study.models.count + 1)/(6·\(study.datasets.count))) = "
    text += "\(Format.fixed(study.nemenyi.criticalDifference, 3)), drawn to scale above the axis: the Nemenyi test "
    text += "cannot tell them apart at α = \(Format.number(study.nemenyi.alpha)) (Demšar, 2006).\n"
    return text
  }

  static func scores(_ context: StudyContext) -> String {
    var text = "## Scores on each dataset\n\n"
    text += figure(context, "scores", alt: "Each dataset's scores, coloured by rank")
    text += "Each cell is a model's mean \(context.study.metric) over the experiment's outer folds; its colour is the "
    text += "model's rank on that dataset, darkest for the best.\n"
    return text
  }

  static func figure(_ context: StudyContext, _ id: String, alt: String) -> String {
    guard let plot = context.plot(id) else { return "" }
    if let reason = plot.skippedBecause { return "*\(plot.title): not drawn, \(reason).*\n\n" }
    return "![\(alt)](\(plot.fileName))\n\n"
  }
}
