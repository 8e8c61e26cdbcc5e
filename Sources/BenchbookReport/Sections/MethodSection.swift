import BenchbookEvaluation
import BenchbookSpec
import Foundation

/// How the scores were made: the folds, the preprocessing, the clipping rule,
/// and how much of each model's score is clipping.
struct MethodSection: ReportSection {
  /// Above this share of clipped loss, a model is flagged as scored mostly by confident errors.
  static let clippedShareWarning = 0.5

  func render(_ context: ReportContext) -> String? {
    let results = context.results
    var text = "## How the scores were made\n\n"
    text += "**Resampling.** \(describe(results.resampling)) "
    text +=
      "Every model is scored on the same folds (fold plan SHA-256 `\(results.resampling.planSha256.prefix(16))…`).\n\n"
    text += foldTable(results)
    text += "\n**Preprocessing.** "
    if results.preprocess.isEmpty {
      text += "None: the models see the feature values as they are"
      text +=
        results.data.featureSummaries.contains { $0.type == .categorical } ? ", with categories one-hot encoded" : ""
      text += ".\n\n"
    } else {
      text += results.preprocess.enumerated().map { index, step in
        let numericOnly = results.preprocessing.map { index < $0.count && $0[index].columns == "numeric" } ?? false
        if step == "impute" { return imputeText(results) }
        guard step == "standardize" else { return step }
        return numericOnly
          ? "standardize the numeric features (subtract the training fold's mean, divide by its population "
            + "standard deviation; one-hot columns stay 0 and 1)"
          : "standardize (subtract the training fold's mean, divide by its population standard deviation)"
      }.joined(separator: ", then ")
      text += ", fitted on each training fold only and applied unchanged to its test fold.\n\n"
    }
    let epsilon = results.scoring.logLossEpsilon
    let cost = -log(epsilon)
    text += "**Scoring.** Log-loss is the mean of −log p(true class) over the test rows, with probabilities clipped to "
    text += "[ε, 1 − ε], ε = \(String(format: "%.6g", epsilon)) (as scikit-learn ≥ 1.5 does). A probability of 0 "
    text += "for the true class therefore costs \(Format.fixed(cost, 2)) nats. The class set is fixed from the whole "
    text += "dataset, so a fold missing a class still scores. ROC AUC is binary, or the macro average of one-vs-rest "
    text +=
      "areas over the classes present in a fold's test rows. Brier is scikit-learn's (halved for two classes).\n\n"
    text += clippingAudit(context, cost: cost)
    return text
  }

  /// What the imputer filled and how: each imputed feature with its missing values among the rows used.
  func imputeText(_ results: ExperimentResults) -> String {
    let records = results.imputation ?? []
    let missing = records.filter { $0.missing > 0 }
    var text = "impute missing values (scikit-learn's `SimpleImputer`) "
    guard !missing.isEmpty else { return text + "(no feature used misses a value)" }
    text += missing.map { record in
      var how =
        switch record.strategy {
        case "mean": "the training fold's mean"
        case "median": "the training fold's median"
        case "most_frequent": "the training fold's most frequent value"
        default: "the constant `\(record.fillValue ?? "0")`"
        }
      if record.addIndicator { how += " and a missing indicator" }
      return "`\(record.feature)` (\(record.missing) of \(results.data.rows) rows) with \(how)"
    }.joined(separator: "; ")
    let indicated = missing.filter(\.addIndicator)
    if !indicated.isEmpty {
      text +=
        "; each indicator is a 0/1 column appended after the features, present in a fold only when its training "
        + "rows miss the feature"
    }
    return text
  }

  /// The method's own sentence (`ResamplingMethod.describe`); a method this build does not know, by its name.
  func describe(_ r: ResamplingRecord) -> String {
    ResamplingRegistry.method(named: r.method)?.describe(r.summary) ?? r.method + "."
  }

  func foldTable(_ results: ExperimentResults) -> String {
    let classes = results.data.classes
    var table = MarkdownTable([
      ("fold", .right), ("train rows", .right), ("test rows", .right), ("test rows per class", .left),
    ])
    let splits = results.resampling.splits
    let repeated = (results.resampling.repeats ?? 1) > 1
    func name(_ split: SplitRecord) -> String {
      repeated ? "\(split.repeat + 1).\(split.fold % results.resampling.folds + 1)" : "\(split.fold + 1)"
    }
    // Consecutive folds of the same make-up share one row, e.g. "1–10".
    var groups: [[SplitRecord]] = []
    for split in splits {
      if let last = groups.last?.last, last.trainRows == split.trainRows, last.testRows == split.testRows,
        last.testClassCounts == split.testClassCounts, last.repeat == split.repeat
      {
        groups[groups.count - 1].append(split)
      } else {
        groups.append([split])
      }
    }
    let shown = groups.count > 20 ? Array(groups.prefix(10)) : groups
    for group in shown {
      let first = group[0]
      let label = group.count == 1 ? name(first) : "\(name(first))–\(name(group.last!))"
      let perClass = zip(classes, first.testClassCounts).map { "\($0): \(Format.count($1))" }.joined(separator: ", ")
      table.append([label, Format.count(first.trainRows), Format.count(first.testRows), perClass])
    }
    var text = table.markdown
    if shown.count < groups.count {
      let hidden = groups.dropFirst(shown.count).map(\.count).reduce(0, +)
      text += "\n…and \(hidden) more folds, listed in results.json.\n"
    }
    let lacking = splits.filter { $0.trainClassCounts.contains(0) }
    if !lacking.isEmpty {
      text +=
        "\n\(lacking.count) fold\(lacking.count == 1 ? "" : "s") train\(lacking.count == 1 ? "s" : "") without some class; "
      text += "the models predict probability 0 for it there.\n"
    }
    let single = splits.filter { $0.testClassCounts.filter { $0 > 0 }.count < 2 }
    if !single.isEmpty {
      text +=
        "\n\(single.count) test fold\(single.count == 1 ? " holds" : "s hold") a single class, where ROC AUC is undefined "
      text +=
        "and scikit-learn's `cross_val_score` stops with an error; Benchbook scores the log-loss and leaves AUC out.\n"
    }
    return text
  }

  func clippingAudit(_ context: ReportContext, cost: Double) -> String {
    var table = MarkdownTable([
      ("model", .left), ("test rows scored at ε", .right), ("share of log-loss from them", .right),
    ])
    var flagged: [String] = []
    for model in context.ranked {
      let clipped = model.folds.map(\.clippedRows).reduce(0, +)
      let rows = model.folds.map(\.testRows).reduce(0, +)
      let totalLoss = model.folds.map { $0.logLoss * Double($0.testRows) }.reduce(0, +)
      let clippedLoss = model.folds.map { $0.logLoss * Double($0.testRows) * $0.clippedLossShare }.reduce(0, +)
      let share = totalLoss > 0 ? clippedLoss / totalLoss : 0
      if share > Self.clippedShareWarning { flagged.append(model.label) }
      table.append([
        model.label,
        "\(Format.count(clipped)) of \(Format.count(rows)) (\(Format.percent(Double(clipped) / Double(max(1, rows)))))",
        Format.percent(share),
      ])
    }
    var text = "**Clipping audit.** How much of each score comes from probabilities of 0 for the true class, "
    text += "each clipped to ε and charged \(Format.fixed(cost, 2)) nats.\n\n" + table.markdown
    if !flagged.isEmpty {
      text += "\n> ⚠️ **\(list(flagged))** \(flagged.count == 1 ? "is" : "are") scored mostly by clipped errors: "
      text += "such a log-loss is about the share of confidently wrong answers times \(Format.fixed(cost, 0)), "
      text += "and says little about the quality of the probabilities. Fully grown trees and small-k neighbours "
      text += "do this; limit the depth, raise k, or compare them on accuracy and ROC AUC instead.\n"
    }
    return text
  }
}
