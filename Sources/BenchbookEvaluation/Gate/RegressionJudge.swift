import BenchbookModels
import BenchbookSpec
import Foundation

/// Compares a fresh measurement with a baseline, figure by figure, under the
/// spec's limits. A pure function: the same two inputs give the same rows.
public struct RegressionJudge: Sendable {
  public let limits: RegressionSpec

  public init(limits: RegressionSpec) { self.limits = limits }

  /// - Parameter sideBySide: the two were timed in the same check on this machine, round
  ///   by round (`check --against`): times are judged as paired ratios of seconds, beyond
  ///   the base-against-base noise band, and the processor need not be compared.
  public func compare(baseline: Baseline, current: Baseline, sideBySide: Bool = false) -> [RegressionRow] {
    var rows: [RegressionRow] = []
    let mismatch = experimentMismatch(baseline.hashes, current.hashes)
    let timing = sideBySide ? nil : Self.timingMismatch(baseline, current)
    for model in current.models {
      guard let old = baseline.model(model.label) else {
        rows.append(
          RegressionRow(model: model.label, metric: .model, verdict: .notComparable, note: "new: not in the baseline"))
        continue
      }
      if let mismatch {
        rows.append(RegressionRow(model: model.label, metric: .model, verdict: .notComparable, note: mismatch))
        continue
      }
      if old.settingsSha256 != model.settingsSha256 || old.algorithm != model.algorithm {
        rows.append(
          RegressionRow(
            model: model.label, metric: .model, verdict: .notComparable,
            note: "settings changed: " + settingsChange(old, model)))
        continue
      }
      rows += judge(
        old, model, limits.thresholds(for: model.label), timingMismatch: timing, sideBySide: sideBySide)
    }
    for old in baseline.models where current.model(old.label) == nil {
      rows.append(
        RegressionRow(model: old.label, metric: .model, verdict: .notComparable, note: "no longer in the spec"))
    }
    return rows
  }

  /// Why no model of the two can be compared, if that is so.
  func experimentMismatch(_ old: Baseline.Hashes, _ new: Baseline.Hashes) -> String? {
    var changed: [String] = []
    if old.definition != new.definition {
      changed.append("the experiment's definition (target, features, preprocessing or resampling)")
    }
    if old.data != new.data { changed.append("the data file") }
    if old.foldPlan != new.foldPlan && old.definition == new.definition && old.data == new.data {
      changed.append("the fold plan")
    }
    return changed.isEmpty ? nil : "changed since the baseline: " + changed.joined(separator: ", ")
  }

  /// Why the two measurements' times cannot be compared, if so. Ratios to the
  /// reference workload cancel a machine that is faster or slower all round, not
  /// another processor, whose units favour some work over other, nor another workload.
  public static func timingMismatch(_ baseline: Baseline, _ current: Baseline) -> String? {
    if baseline.timingReference != current.timingReference { return "timed against another reference workload" }
    if !baseline.machine.sameProcessor(as: current.machine) { return "timed on another processor" }
    return nil
  }

  func settingsChange(_ old: Baseline.Model, _ new: Baseline.Model) -> String {
    if old.algorithm != new.algorithm { return "\(old.algorithm) → \(new.algorithm)" }
    let keys = Set(old.params.keys).union(new.params.keys).sorted()
    let changes = keys.filter { old.params[$0] != new.params[$0] }.map {
      "\($0) \(old.params[$0].map(\.description) ?? "unset") → \(new.params[$0].map(\.description) ?? "unset")"
    }
    return changes.isEmpty ? "settings differ" : changes.joined(separator: ", ")
  }

  func judge(
    _ old: Baseline.Model, _ new: Baseline.Model, _ t: RegressionThresholds, timingMismatch: String? = nil,
    sideBySide: Bool = false
  ) -> [RegressionRow] {
    var rows = [judgeLogLoss(label: new.label, old.logLoss.mean, new.logLoss.mean, t)]
    for (metric, a, b) in [
      (RegressionRow.Metric.accuracy, old.accuracy.mean, new.accuracy.mean), (.brier, old.brier.mean, new.brier.mean),
      (.rocAUC, old.rocAUC.mean, new.rocAUC.mean),
    ] {
      rows.append(judgeDrift(label: new.label, metric: metric, a, b, t))
    }
    for (metric, a, b) in [
      (RegressionRow.Metric.fitTime, old.timing.fitRatios, new.timing.fitRatios),
      (.predictTime, old.timing.predictRatios, new.timing.predictRatios),
    ] {
      if sideBySide {
        let seconds =
          metric == .fitTime
          ? (old.timing.fitSeconds, new.timing.fitSeconds)
          : (old.timing.predictSeconds, new.timing.predictSeconds)
        rows.append(judgePairedTime(label: new.label, metric: metric, base: seconds.0, head: seconds.1, t))
      } else if let timingMismatch {
        rows.append(
          RegressionRow(
            model: new.label, metric: metric, verdict: .notComparable, baseline: a.median, current: b.median,
            note: timingMismatch))
      } else {
        rows.append(judgeTime(label: new.label, metric: metric, a, b, t))
      }
    }
    if let a = old.modelSizeBytes, let b = new.modelSizeBytes {
      rows.append(judgeSize(label: new.label, Double(a), Double(b), t))
    }
    if let a = old.tuning, let b = new.tuning { rows.append(judgeChoices(label: new.label, a, b)) }
    if let a = old.instructions, let b = new.instructions {
      rows.append(judgeInstructions(label: new.label, metric: .fitInstructions, a.fit, b.fit, t))
      rows.append(judgeInstructions(label: new.label, metric: .predictInstructions, a.predict, b.predict, t))
    }
    return rows
  }

  /// Base and head timed in alternating rounds of one check: the factor is the median of
  /// the per-round ratios head ÷ base, Mann–Whitney says whether head's seconds tend to be
  /// larger, and every limit is raised to the noise band when the base alone moved more.
  public func judgePairedTime(
    label: String, metric: RegressionRow.Metric, base: [Double], head: [Double], _ t: RegressionThresholds
  ) -> RegressionRow {
    var row = RegressionRow(model: label, metric: metric, verdict: .pass, baseline: base.median, current: head.median)
    let rounds = min(base.count, head.count)
    guard rounds > 0 else {
      row.verdict = .notComparable
      row.note = "no timing samples"
      return row
    }
    let ratios = (0..<rounds).map { head[$0] / base[$0] }
    let factor = ratios.median
    let band = Self.noiseBand(base)
    let slower = MannWhitneyU.pValue(larger: head, smaller: base)
    row.factor = factor
    row.noiseBand = band
    row.pValue = slower
    row.noise = Self.spread(ratios)
    let warn = max(t.timeWarn, band)
    let fail = max(t.timeFail, band)
    row.warnLimit = warn
    row.failLimit = fail
    if factor >= max(t.timeFailRegardless, band) || (factor >= fail && slower < t.timeSignificance) {
      row.verdict = .fail
    } else if factor >= warn && slower < t.timeSignificance {
      row.verdict = .warn
    } else if factor <= 1 / warn && MannWhitneyU.pValue(larger: base, smaller: head) < t.timeSignificance {
      row.verdict = .improved
    }
    if band > t.timeWarn && row.verdict != .pass {
      row.note = String(format: "limits raised to the base's own spread, ×%.2f", band)
    }
    return row
  }

  /// The median factor by which the base's time moved from one round to the next: what
  /// noise alone does to the same binary during this check. The median, not the largest,
  /// so that one round lost to another process does not switch the gate off.
  public static func noiseBand(_ base: [Double]) -> Double {
    guard base.count >= 2 else { return 1 }
    return zip(base, base.dropFirst()).map { max($1 / $0, $0 / $1) }.median
  }

  /// Instruction counts are reproducible, so the limits are tight: a share more than the baseline's.
  func judgeInstructions(
    label: String, metric: RegressionRow.Metric, _ old: Int, _ new: Int, _ t: RegressionThresholds
  ) -> RegressionRow {
    var row = RegressionRow(
      model: label, metric: metric, verdict: .pass, baseline: Double(old), current: Double(new),
      warnLimit: t.instructionsWarnRelative, failLimit: t.instructionsFailRelative)
    let growth = (Double(new) - Double(old)) / Double(max(old, 1))
    row.verdict = Self.verdict(growth: growth, warn: t.instructionsWarnRelative, fail: t.instructionsFailRelative)
    return row
  }

  /// A tuned model's choices are exact: any change fails, naming the folds and the settings.
  func judgeChoices(label: String, _ old: Baseline.Model.Choices, _ new: Baseline.Model.Choices) -> RegressionRow {
    var row = RegressionRow(
      model: label, metric: .chosenConfiguration, verdict: .pass, baseline: Double(old.finalConfiguration),
      current: Double(new.finalConfiguration))
    var changes: [String] = []
    if old.finalConfiguration != new.finalConfiguration {
      let describe = { (params: [String: ParameterValue]) in
        params.keys.sorted().map { "\($0)=\(params[$0]!)" }.joined(separator: ", ")
      }
      changes.append("the shipped configuration changed: \(describe(old.finalParams)) → \(describe(new.finalParams))")
    }
    let folds = zip(old.chosen, new.chosen).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
    if !folds.isEmpty || old.chosen.count != new.chosen.count {
      changes.append(
        "outer fold\(folds.count == 1 ? "" : "s") \(folds.map(String.init).joined(separator: ", ")) chose another configuration"
      )
    }
    if !changes.isEmpty {
      row.verdict = .fail
      row.note = changes.joined(separator: "; ")
    }
    return row
  }

  func judgeLogLoss(label: String, _ old: Double?, _ new: Double?, _ t: RegressionThresholds) -> RegressionRow {
    var row = RegressionRow(model: label, metric: .logLoss, verdict: .pass, baseline: old, current: new)
    guard let old, let new, new.isFinite else {
      row.verdict = .fail
      row.note = "log-loss is \(new.map { "\($0)" } ?? "missing")"
      return row
    }
    let warn = t.logLossLimit(old, failing: false)
    let fail = t.logLossLimit(old, failing: true)
    row.warnLimit = warn
    row.failLimit = fail
    let increase = new - old
    if increase > fail {
      row.verdict = .fail
    } else if increase > warn {
      row.verdict = .warn
    } else if -increase > warn {
      row.verdict = .improved
      row.note = "improved: run `benchbook baseline`"
    } else if relativeChange(old, new) > t.drift {
      row.verdict = .drift
    }
    return row
  }

  func judgeDrift(
    label: String, metric: RegressionRow.Metric, _ old: Double?, _ new: Double?, _ t: RegressionThresholds
  ) -> RegressionRow {
    var row = RegressionRow(model: label, metric: metric, verdict: .pass, baseline: old, current: new)
    switch (old, new) {
    case (nil, nil): break
    case (let a?, let b?): if relativeChange(a, b) > t.drift { row.verdict = .drift }
    default: row.verdict = .drift
    }
    return row
  }

  func judgeTime(
    label: String, metric: RegressionRow.Metric, _ old: [Double], _ new: [Double], _ t: RegressionThresholds
  ) -> RegressionRow {
    var row = RegressionRow(
      model: label, metric: metric, verdict: .pass, baseline: old.median, current: new.median, warnLimit: t.timeWarn,
      failLimit: t.timeFail)
    guard !old.isEmpty, !new.isEmpty else {
      row.verdict = .notComparable
      row.note = "no timing samples"
      return row
    }
    let factor = new.median / old.median
    let slower = MannWhitneyU.pValue(larger: new, smaller: old)
    row.pValue = slower
    row.noise = Self.spread(new)
    if factor >= t.timeFailRegardless || (factor >= t.timeFail && slower < t.timeSignificance) {
      row.verdict = .fail
    } else if factor >= t.timeWarn && slower < t.timeSignificance {
      row.verdict = .warn
    } else if factor <= 1 / t.timeWarn && MannWhitneyU.pValue(larger: old, smaller: new) < t.timeSignificance {
      row.verdict = .improved
      row.note = "improved: run `benchbook baseline`"
    }
    return row
  }

  func judgeSize(label: String, _ old: Double, _ new: Double, _ t: RegressionThresholds) -> RegressionRow {
    var row = RegressionRow(
      model: label, metric: .modelSize, verdict: .pass, baseline: old, current: new, warnLimit: t.sizeWarnRelative,
      failLimit: t.sizeFailRelative)
    row.verdict = Self.verdict(growth: (new - old) / old, warn: t.sizeWarnRelative, fail: t.sizeFailRelative)
    if row.verdict == .improved {
      row.note = "improved: run `benchbook baseline`"
    } else if row.verdict == .pass && new != old {
      row.verdict = .drift
    }
    return row
  }

  /// A relative growth judged against a warn and a fail share; shrinking past the warn share is an improvement.
  static func verdict(growth: Double, warn: Double, fail: Double) -> RegressionRow.Verdict {
    if growth > fail { return .fail }
    if growth > warn { return .warn }
    if -growth > warn { return .improved }
    return .pass
  }

  func relativeChange(_ old: Double, _ new: Double) -> Double {
    if old == new { return 0 }
    return abs(new - old) / max(abs(old), Double.leastNormalMagnitude)
  }

  /// Interquartile range over median: how noisy a set of timing ratios is.
  static func spread(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    func quantile(_ q: Double) -> Double {
      let position = q * Double(sorted.count - 1)
      let low = Int(position.rounded(.down))
      let high = min(low + 1, sorted.count - 1)
      return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
    }
    return (quantile(0.75) - quantile(0.25)) / values.median
  }
}
