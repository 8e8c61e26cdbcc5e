import BenchbookData
import BenchbookEvaluation
import Foundation

/// `regression.md`: one summary line, then only what changed, most severe first.
public enum RegressionReport {
  public static let fileName = "regression.md"

  /// The summary line every reader sees first.
  public static func headline(_ outcome: RegressionCheck.Outcome) -> String {
    if let problem = outcome.problem { return "Regression check: not run: \(problem)" }
    var line = "Regression check: \(outcome.passed) passed, \(outcome.failed) failed"
    if outcome.warnings > 0 { line += ", \(outcome.warnings) warning\(outcome.warnings == 1 ? "" : "s")" }
    let notices = outcome.rows.filter { $0.verdict == .notComparable }.count
    if notices > 0 { line += ", \(notices) not comparable" }
    return line
  }

  public static func markdown(
    _ outcome: RegressionCheck.Outcome, history: [RegressionHistory.Entry], plots: [PlotOutcome]
  ) -> String {
    var text = headline(outcome) + "\n\n"
    if let sides = outcome.sideBySide {
      text += sideBySideIntroduction(outcome, sides)
    } else {
      text += "**\(outcome.experiment)** against `\(outcome.baselinePath)`"
      if let baseline = outcome.baseline {
        text +=
          ", made with Benchbook \(baseline.benchbook) on \(baseline.machine.cpu) (\(baseline.machine.cores) cores)"
      }
      text += ".\n\n"
    }
    guard outcome.problem == nil else { return text }
    let changed = outcome.rows.filter { $0.verdict != .pass }
    if changed.isEmpty && !outcome.remeasured.isEmpty {
      // A first measurement failed and its confirmation did not: say so, not that nothing moved.
      text +=
        "No change was confirmed: every score equals the base's, and the times that failed at first "
        + "were within their limits when timed again (below).\n\n"
    } else if changed.isEmpty {
      text +=
        "Nothing changed: every score equals the \(outcome.sideBySide == nil ? "baseline" : "base's") and no time moved beyond its limits.\n\n"
    } else {
      var table = MarkdownTable([
        ("", .left), ("model", .left), ("metric", .left), ("baseline", .right), ("current", .right), ("change", .right),
        ("limit (warn / fail)", .right), ("noise", .right), ("note", .left),
      ])
      if outcome.sideBySide != nil {
        table = MarkdownTable([
          ("", .left), ("model", .left), ("metric", .left), ("base", .right), ("head", .right), ("change", .right),
          ("limit (warn / fail)", .right), ("noise", .right), ("note", .left),
        ])
      }
      for row in changed {
        table.append([
          symbol(row.verdict) + " " + row.verdict.rawValue, row.model, row.metric.rawValue, value(row, row.baseline),
          value(row, row.current), change(row), limit(row), noise(row), row.note ?? "",
        ])
      }
      text += table.markdown + "\n"
    }
    if outcome.sideBySide == nil, let baseline = outcome.baseline, let current = outcome.current,
      let reason = RegressionJudge.timingMismatch(baseline, current)
    {
      text += """
        Times are not judged: \(reason) (baseline: \(baseline.machine.processor), \
        \(baseline.timingReference ?? "the first reference workload"); here: \(current.machine.processor), \
        \(current.timingReference ?? "the first reference workload")). Ratios to the reference workload cancel a \
        machine that is faster or slower all round, not a processor that favours some work over other. Scores and \
        sizes are judged as usual; run `benchbook baseline` on this machine to gate times again.


        """
    }
    if let sides = outcome.sideBySide {
      if !outcome.remeasured.isEmpty {
        text += """
          Failing times of \(list(outcome.remeasured)) were timed again in \(sides.rounds) fresh interleaved rounds \
          of both sides and judged on those alone; the table shows the confirmation (first measurement: \
          \(sides.firstMeasurements.joined(separator: "; "))).


          """
      }
      text += """
        How to read this: scores are deterministic, so any change beyond \(Format.number(1e-9)) (relative) is \
        listed as *drift*; log-loss fails when it rises by more than its limit. Base and head took turns, one \
        single-threaded round each, the order alternating, timed in CPU seconds of each side's process; a time's \
        change is the median over rounds of head ÷ base seconds, and counts only when the Mann–Whitney test says head is slower (p below the limit), or when \
        it is large regardless, and always beyond the noise band: the median factor the base's own time moved by \
        from one round to the next in this check. Instruction counts, when measured, come from valgrind.

        """
      return text
    }
    if !outcome.remeasured.isEmpty {
      text +=
        "Failing times of \(list(outcome.remeasured)) were measured a second time; the table shows the second measurement.\n\n"
    }
    text += """
      How to read this: scores are deterministic, so any change beyond \(Format.number(1e-9)) (relative) is listed as \
      *drift*; log-loss fails when it rises by more than its limit. Times are medians of model time ÷ a fixed reference \
      workload over \(outcome.current?.timingRounds ?? 0) interleaved single-threaded rounds, so a uniformly slower \
      machine cancels out; a slowdown counts only when the Mann–Whitney test says it is not noise (p below the limit), \
      or when it is large regardless. Noise is the interquartile range of the current ratios over their median.

      """
    let drawn = plots.filter { $0.skippedBecause == nil }
    if history.count > 1 && !drawn.isEmpty {
      text += "\n## History\n\n"
      for plot in drawn { text += "![\(plot.title)](\(plot.fileName))\n\n" }
    }
    return text
  }

  /// Writes `regression.md` and the history plots into `directory`, and appends the same text
  /// to `$GITHUB_STEP_SUMMARY` when that is set.
  @discardableResult
  public static func write(
    _ outcome: RegressionCheck.Outcome, history: [RegressionHistory.Entry], to directory: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> String {
    let plots = history.count > 1 ? RegressionPlots.draw(history, into: directory, environment: environment) : []
    let text = markdown(outcome, history: history, plots: plots)
    let path = (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    try AtomicFile.write(text, to: path)
    if let summary = stepSummaryPath(environment) {
      do {
        try AppendFile.append(Array((text + "\n").utf8), to: summary)
      } catch {
        throw StepSummaryFailure(failure: error, reportPath: path)
      }
    }
    return path
  }

  /// Names both sides, the machine and, when set, the planted slowdown.
  static func sideBySideIntroduction(_ outcome: RegressionCheck.Outcome, _ sides: SideBySideCheck.Record) -> String {
    var text = "**\(outcome.experiment)**: head \(sides.head.name) against base `\(sides.base.name)`"
    if let base = sides.base.commit { text += ", base commit `\(base)`" }
    if let head = sides.head.commit { text += ", head commit `\(head)`" }
    if let machine = outcome.current?.machine {
      text += "; measured side by side on \(machine.cpu) (\(machine.cores) cores)"
    }
    text += " in \(sides.rounds) interleaved single-threaded rounds"
    if let factor = sides.referenceFactor {
      text += String(format: " (reference workload, for the record: head ÷ base %.2f×)", factor)
    }
    text += ".\n\n"
    if let planted = sides.testRepeatFit {
      let what = (try? FitRepeat(parsing: planted)).map {
        "\($0.label) does its fit work \(Format.number($0.factor))× per fit"
      }
      text += """
        **\(FitRepeat.variable)=\(planted) was set** (test only): the head's \(what ?? "model repeats its fit work"), \
        a planted slowdown; the base ran without it.


        """
    }
    return text
  }

  /// `$GITHUB_STEP_SUMMARY` when set and not empty.
  public static func stepSummaryPath(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String?
  {
    environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The step summary could not be appended to; `regression.md` was written.
  public struct StepSummaryFailure: Error, CustomStringConvertible {
    public var failure: AtomicFile.Failure
    public var reportPath: String
    public var description: String { "$GITHUB_STEP_SUMMARY \(failure) (\(reportPath) was written)" }
  }

  static func symbol(_ verdict: RegressionRow.Verdict) -> String {
    switch verdict {
    case .fail: "❌"
    case .warn: "⚠️"
    case .notComparable: "➖"
    case .improved: "✅"
    case .drift: "〰️"
    case .pass: "✔"
    }
  }

  static func value(_ row: RegressionRow, _ value: Double?) -> String {
    guard let value else { return "–" }
    switch row.metric {
    case .fitTime, .predictTime:
      return row.factor != nil ? String(format: "%.3g ms", value * 1000) : String(format: "%.3g×ref", value)
    case .modelSize: return "\(Format.count(Int(value))) B"
    case .fitInstructions, .predictInstructions: return Format.count(Int(value))
    case .chosenConfiguration: return "configuration \(Int(value) + 1)"
    default: return String(format: "%.6f", value)
    }
  }

  static func change(_ row: RegressionRow) -> String {
    guard row.isJudged, let old = row.baseline, let new = row.current else { return "–" }
    switch row.metric {
    case .fitTime, .predictTime: return String(format: "%.2f×", row.factor ?? new / old)
    case .modelSize: return String(format: "%+.1f%%", (new - old) / old * 100)
    case .fitInstructions, .predictInstructions: return String(format: "%+.2f%%", (new - old) / max(old, 1) * 100)
    case .chosenConfiguration: return row.verdict == .pass ? "same" : "changed"
    default: return (new >= old ? "+" : "") + Format.difference(new - old)
    }
  }

  static func limit(_ row: RegressionRow) -> String {
    guard row.isJudged else { return "–" }
    if row.metric == .chosenConfiguration { return "must not change" }
    guard let warn = row.warnLimit, let fail = row.failLimit else { return "drift only" }
    switch row.metric {
    case .fitTime, .predictTime: return String(format: "%.2g× / %.2g× (p < limit)", warn, fail)
    case .modelSize, .fitInstructions, .predictInstructions:
      return String(format: "+%.0f%% / +%.0f%%", warn * 100, fail * 100)
    default: return "+\(Format.difference(warn)) / +\(Format.difference(fail))"
    }
  }

  static func noise(_ row: RegressionRow) -> String {
    var parts: [String] = []
    if let noise = row.noise { parts.append(String(format: "±%.0f%%", noise * 50)) }
    if let p = row.pValue { parts.append("p \(Format.pValue(p))") }
    if let band = row.noiseBand { parts.append(String(format: "band ×%.2f", band)) }
    if parts.isEmpty { return [.logLoss, .fitInstructions, .predictInstructions].contains(row.metric) ? "exact" : "–" }
    return parts.joined(separator: ", ")
  }
}
