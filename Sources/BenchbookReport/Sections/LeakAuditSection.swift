import BenchbookEvaluation

/// The leak audit, explained: right after the answer when any finding not
/// accepted is a warning or worse (it may change what the answer means),
/// otherwise near the end. Rendered from `results.audit` alone.
struct LeakAuditSection: ReportSection {
  enum Placement { case afterTheAnswer, late }
  let placement: Placement

  /// The audit's figures, drawn in this section rather than under *Plots*.
  static let plotIDs: Set<String> = ["audit-fold-times", "audit-class-rate"]
  static let captions: [String: String] = [
    "audit-fold-times":
      "Each fold's training rows (thin bars) and test rows (thick bars) along the time column. Where a training bar "
      + "lies to the right of its fold's test bar, the models learned from rows that come after the ones they are tested on.",
    "audit-class-rate":
      "The share of rows in each class, over equal stretches of time. Where it drifts, folds that mix periods let a "
      + "model learn the period rather than the problem.",
  ]

  static func isProminent(_ audit: AuditRecord) -> Bool { (audit.worstUnaccepted ?? .info) >= .warning }

  func render(_ context: ReportContext) -> String? {
    guard let audit = context.results.audit else { return nil }
    guard Self.isProminent(audit) == (placement == .afterTheAnswer) else { return nil }
    var text = "## Leak audit\n\n"
    text += "A leak lets a model see, while it is scored, something it will not have when it is used: the future, "
    text += "part of the answer, or the test rows themselves. Its scores then look better than the model is. "
    // Every check but selection bias looks for a kind of leak.
    let kinds = LeakAudit.checks.filter { $0.id != .selectionBias }.count
    text += "Benchbook checks the spec, the data and the folds for \(Format.word(kinds)) kinds of leak on every run"
    if audit.checks.contains(where: { $0.check == .selectionBias }) {
      text +=
        ", and, since this spec chooses among configurations, whether the winner's score is flattered by that choice"
    }
    text += ".\n\n"
    text += summary(audit) + "\n"

    for finding in audit.findings {
      text += "### \(AuditFindingText.mark(finding.severity)): \(AuditFindingText.title(finding))"
      text += finding.accepted ? " (accepted)\n\n" : "\n\n"
      text += "\(finding.message)\n\n"
      let evidence = AuditFindingText.evidence(finding, context.results)
      if !evidence.isEmpty { text += evidence + "\n" }
      if let reason = finding.acceptedBecause {
        text += "> **Accepted** in the spec: \(reason)\n\n"
      }
      text += "<sub>check `\(finding.check)`, subject `\(finding.subject)`</sub>\n\n"
    }
    text += plots(context)
    text += checksRun(audit)
    return text.trimmingTrailingNewlines() + "\n"
  }

  private func summary(_ audit: AuditRecord) -> String {
    let counts = AuditSeverity.allCases.reversed().compactMap { severity -> String? in
      let count = audit.findings.filter { $0.severity == severity }.count
      guard count > 0 else { return nil }
      switch severity {
      case .error: return "\(count) error\(count == 1 ? "" : "s")"
      case .warning: return "\(count) warning\(count == 1 ? "" : "s")"
      case .info: return "\(count) note\(count == 1 ? "" : "s")"
      }
    }
    guard !counts.isEmpty else { return "**Nothing found.** Every check that could run found no sign of a leak.\n" }
    let accepted = audit.findings.filter(\.accepted).count
    var text = "**Found: \(list(counts))**" + (accepted > 0 ? " (\(accepted) accepted by the spec)" : "") + ". "
    if !audit.standingErrors.isEmpty {
      text += "An error means the scores above cannot be trusted as they are; `benchbook run` exits with status 3 "
      text += "until it is fixed or accepted in the spec (`audit: {accept: [{check, subject, reason}]}`).\n"
    } else if audit.findings.contains(where: { $0.severity == .warning && !$0.accepted }) {
      text += "A warning means the scores may be too good; read it before trusting the ranking.\n"
    } else {
      text += "Notes are worth knowing, and change nothing on their own.\n"
    }
    return text
  }

  private func plots(_ context: ReportContext) -> String {
    var text = ""
    for plot in context.plots where Self.plotIDs.contains(plot.id) {
      if let reason = plot.skippedBecause {
        text += "Plot not drawn: \(plot.title) (`\(plot.fileName)`): \(reason)\n\n"
        continue
      }
      text += "#### \(plot.title)\n\n![\(plot.title)](\(plot.fileName))\n\n"
      if let caption = Self.captions[plot.id] { text += "\(caption)\n\n" }
    }
    return context.results.audit?.timeProfile == nil ? "" : text
  }

  private func checksRun(_ audit: AuditRecord) -> String {
    var text = "#### The checks\n\n"
    var table = MarkdownTable([("check", .left), ("asks", .left), ("result", .left)])
    for check in audit.checks {
      let count = audit.findings.filter { $0.check == check.check }.count
      let result: String
      if check.status == "skipped" {
        result = "not run: \(check.note)"
      } else if count == 0 {
        result = "nothing found (\(check.note))"
      } else {
        result = "\(count) finding\(count == 1 ? "" : "s") (\(check.note))"
      }
      table.append(["`\(check.check.rawValue)`", AuditFindingText.purpose(check.check), result])
    }
    text += table.markdown
    if let screen = audit.screen, !screen.features.isEmpty {
      let screened = ScreenSample.sampleWords(
        rows: screen.rows, sampledFrom: screen.sampledFrom, sourceFold: screen.sourceFold)
      text += "\n**The screens, feature by feature.** On \(screened), with \(screen.folds)-fold cross-validation "
      text += "within them"
      if let model = screen.model, let logLoss = screen.logLoss {
        text += ": \(model) scores \(Format.fixed(logLoss, 4)) with every feature, against "
        text += "\(Format.fixed(screen.nullLogLoss, 4)) for knowing nothing"
      }
      text += ". *Drop-column* is how much worse it scores without the feature, as a share of that null log-loss "
      text += "(warning from \(Format.percent(audit.thresholds.dropColumnShare)); below zero, it does better without "
      text += "it); "
      if screen.features.contains(where: { $0.neutralisedShare != nil }) {
        let bar = Format.percent(SuspectLeakCheck.refitFraction * audit.thresholds.dropColumnShare)
        text += "*neutralised* is the same with the feature held at its training mean instead of refitted, or, where "
        text += "that reaches \(bar), at its prediction from the other features when that costs less (a feature "
        text += "measured twice costs little once its twin stands in); neither costs a fit: only the features "
        text += "still at \(bar) are refitted (– in *drop-column* for the others); "
      }
      text += "*alone* is the ROC AUC of the "
      text +=
        "feature on its own (note from \(Format.fixed(audit.thresholds.singleFeatureAUCInfo, 2)), warning when its "
      text += "97.5% lower bound reaches \(Format.fixed(audit.thresholds.singleFeatureAUCWarning, 2))).\n\n"
      let held = screen.features.contains { $0.neutralisedShare != nil }
      var features = MarkdownTable(
        [("feature", .left), ("drop-column", .right)] + (held ? [("neutralised", .right)] : [])
          + [("alone (ROC AUC)", .right)])
      for feature in screen.features {
        features.append(
          [feature.name, feature.dropColumnShare.map { Format.percent($0) } ?? "–"]
            + (held ? [feature.neutralisedShare.map { Format.percent($0) } ?? "–"] : [])
            + [Format.fixed(feature.singleFeatureAUC, 3)])
      }
      text += features.markdown
    }
    let unused = audit.accepted.filter { $0.matched == 0 }
    for acceptance in unused {
      text += "\nThe spec accepts `\(acceptance.check)`" + (acceptance.subject.map { " for `\($0)`" } ?? "")
      text += ", but no such finding was made; the acceptance can go.\n"
    }
    return text
  }
}
