import BenchbookEvaluation
import Foundation

/// Whether each model's probabilities can be acted on: the calibration measures of its pooled out-of-fold
/// predictions (`models[].calibration`), and one sentence naming the over- and under-confident models. Log-loss
/// ranks models; this says whether the winner's 0.8 means eight in ten.
struct CalibrationSection: ReportSection {
  /// A slope this far from 1 names a model over- or under-confident (two classes).
  static let slopeMargin = 0.1
  /// Mean top-label confidence this far from accuracy does so for more classes.
  static let confidenceMargin = 0.02

  enum Verdict: Equatable {
    case overConfident, underConfident, withinMargin, unknown
  }

  static func verdict(_ calibration: CalibrationRecord, twoClasses: Bool) -> Verdict {
    if twoClasses {
      guard let slope = calibration.slope else { return .unknown }
      if slope < 1 - slopeMargin { return .overConfident }
      if slope > 1 + slopeMargin { return .underConfident }
      return .withinMargin
    }
    guard let gap = calibration.meanGap else { return .unknown }
    if gap > confidenceMargin { return .overConfident }
    if gap < -confidenceMargin { return .underConfident }
    return .withinMargin
  }

  func render(_ context: ReportContext) -> String? {
    let models = context.ranked.filter { $0.calibration?.ece != nil }
    guard !models.isEmpty else { return nil }
    let twoClasses = models[0].calibration?.positiveClass != nil
    var text = "### Calibration\n\n"
    if twoClasses {
      let positive = models[0].calibration!.positiveClass!
      text += "Each model's out-of-fold probability of \(positive), pooled over the test folds: expected calibration "
      text += "error over ten equal-count bins, the slope and intercept of a logistic fit of the outcome on the "
      text += "logit of the probability (1 and 0 when calibrated; a slope below 1 means probabilities too extreme), "
      text += "and the Brier score's decomposition over the same bins (reliability, lower is better; resolution, "
      text += "higher is better; uncertainty, the data's own).\n\n"
      var table = MarkdownTable([
        ("Model", .left), ("ECE", .right), ("slope", .right), ("intercept", .right), ("reliability", .right),
        ("resolution", .right), ("uncertainty", .right),
      ])
      for model in models {
        let c = model.calibration!
        table.append([
          model.label, Format.fixed(c.ece, 4), Format.fixed(c.slope, 3), Format.fixed(c.intercept, 3),
          Format.fixed(c.reliability, 4), Format.fixed(c.resolution, 4), Format.fixed(c.uncertainty, 4),
        ])
      }
      text += table.markdown + "\n"
    } else {
      text += "Each model's top-label confidence (its highest probability) against whether that label was right, "
      text += "pooled over the test folds: expected calibration error over ten equal-count bins, and the mean "
      text += "confidence minus the accuracy (above 0, the model is surer than it is right).\n\n"
      var table = MarkdownTable([("Model", .left), ("ECE", .right), ("confidence − accuracy", .right)])
      for model in models {
        let c = model.calibration!
        table.append([model.label, Format.fixed(c.ece, 4), c.meanGap.map { String(format: "%+.4f", $0) } ?? "–"])
      }
      text += table.markdown + "\n"
    }
    text += sentence(models, twoClasses: twoClasses)
    return text
  }

  /// Which models are too sure, too timid or within the margin, by the rule the docs state.
  func sentence(_ models: [ModelResult], twoClasses: Bool) -> String {
    func labels(_ verdict: Verdict) -> [String] {
      models.filter { Self.verdict($0.calibration!, twoClasses: twoClasses) == verdict }.map(\.label)
    }
    let rule =
      twoClasses
      ? "slope below \(Format.number(1 - Self.slopeMargin))"
      : "confidence more than \(Format.number(Self.confidenceMargin)) above accuracy"
    let timidRule =
      twoClasses
      ? "slope above \(Format.number(1 + Self.slopeMargin))"
      : "more than \(Format.number(Self.confidenceMargin)) below"
    var parts: [String] = []
    let over = labels(.overConfident)
    let under = labels(.underConfident)
    let within = labels(.withinMargin)
    let unknown = labels(.unknown)
    if !over.isEmpty { parts.append("over-confident (\(rule)): \(over.joined(separator: ", "))") }
    if !under.isEmpty { parts.append("under-confident (\(timidRule)): \(under.joined(separator: ", "))") }
    if !within.isEmpty { parts.append("within the margin: \(within.joined(separator: ", "))") }
    if !unknown.isEmpty {
      parts.append(
        "no finite slope (the probabilities separate the outcomes, or never vary): \(unknown.joined(separator: ", "))")
    }
    let joined = parts.joined(separator: "; ")
    return joined.isEmpty ? "" : joined.prefix(1).uppercased() + joined.dropFirst() + ".\n"
  }
}
