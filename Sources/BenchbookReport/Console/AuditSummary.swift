import BenchbookEvaluation

/// The leak audit as plain text for the terminal: a count line, then one
/// entry per finding, worst first.
public enum AuditSummary {
  /// `leak audit: 1 error, 2 warnings, 1 note (1 accepted)`.
  public static func headline(_ audit: AuditRecord) -> String {
    var parts: [String] = []
    for severity in AuditSeverity.allCases.reversed() {
      let count = audit.findings.filter { $0.severity == severity }.count
      guard count > 0 else { continue }
      parts.append("\(count) \(noun(severity, count))")
    }
    let accepted = audit.findings.filter(\.accepted).count
    let text = parts.isEmpty ? "nothing found" : parts.joined(separator: ", ")
    return "leak audit: \(text)" + (accepted > 0 ? " (\(accepted) accepted)" : "")
  }

  /// Every finding with its full message (`benchbook audit`), or only warnings and errors in one line each
  /// (`benchbook run`).
  public static func render(_ audit: AuditRecord, full: Bool) -> String {
    var text = headline(audit) + "\n"
    for finding in audit.findings where full || finding.severity > .info {
      let mark = finding.accepted ? " (accepted)" : ""
      let head = "  \(finding.severity.rawValue)\(mark) \(finding.check) [\(finding.subject)]"
      if full {
        text += head + "\n" + wrap(finding.message, indent: "    ") + "\n"
        if let reason = finding.acceptedBecause { text += wrap("accepted: \(reason)", indent: "    ") + "\n" }
      } else {
        text += head + ": " + firstClause(finding.message) + "\n"
      }
    }
    return text
  }

  /// The message up to its first colon or full stop.
  static func firstClause(_ message: String) -> String {
    let ends = [": ", ". "].compactMap { message.range(of: $0)?.lowerBound }
    guard let end = ends.min() else { return message }
    return String(message[..<end])
  }

  static func noun(_ severity: AuditSeverity, _ count: Int) -> String {
    switch severity {
    case .error: count == 1 ? "error" : "errors"
    case .warning: count == 1 ? "warning" : "warnings"
    case .info: count == 1 ? "note" : "notes"
    }
  }

  /// Words wrapped at 100 columns after `indent`.
  static func wrap(_ text: String, indent: String) -> String {
    var lines: [String] = []
    var line = indent
    for word in text.split(separator: " ") {
      if line.count + word.count + 1 > 100 && line != indent {
        lines.append(line)
        line = indent
      }
      line += (line == indent ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
