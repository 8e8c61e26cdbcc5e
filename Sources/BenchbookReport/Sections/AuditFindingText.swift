import BenchbookEvaluation
import BenchbookSpec
import Foundation

/// Each audit finding in words a newcomer can follow: a plain title, what the check looks for, and its evidence as
/// short tables and lists, each in the words of the check that made it (`AuditCheck`).
enum AuditFindingText {
  static func mark(_ severity: AuditSeverity) -> String {
    switch severity {
    case .error: "⛔ Error"
    case .warning: "⚠️ Warning"
    case .info: "ℹ️ Note"
    }
  }

  /// A heading for the finding, without jargon; a check this build does not know is named by its id.
  static func title(_ finding: AuditFinding) -> String {
    LeakAudit.check(finding.check)?.title(finding) ?? "`\(finding.check)` finding about `\(finding.subject)`"
  }

  /// What the check is for, in one sentence, for the list of checks.
  static func purpose(_ check: AuditCheckID) -> String { LeakAudit.check(check)?.question ?? "" }

  /// The evidence, rendered by the check that produced it; empty when there is nothing to add.
  static func evidence(_ finding: AuditFinding, _ results: ExperimentResults) -> String {
    LeakAudit.check(finding.check)?.evidence(finding, results) ?? ""
  }
}
