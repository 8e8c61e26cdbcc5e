import BenchbookData

extension SpecParser {
  /// `audit: {gap: 0, screen_rows: 20000, forward_test_rows: 10000, thresholds: {…}, skip: [check],
  /// accept: [{check, subject, reason}]}`.
  static func parseAudit(_ node: SpecNode?) throws(SpecError) -> AuditSpec {
    var audit = AuditSpec()
    guard let node else { return audit }
    let fields = try node.fields(allowed: [
      "gap", "thresholds", "accept", "skip", "screen_rows", "forward_test_rows",
    ])
    if let gap = fields.optional("gap") { audit.gap = try gap.int(atLeast: 0) }
    if let rows = fields.optional("screen_rows") { audit.screenRows = try rows.int(atLeast: 10) }
    if let rows = fields.optional("forward_test_rows") { audit.forwardTestRows = try rows.int(atLeast: 1) }
    if let thresholds = fields.optional("thresholds") { audit.thresholds = try parseThresholds(thresholds) }
    if let skip = fields.optional("skip") {
      for item in try skip.items() {
        let reference = try checkReference(item)
        audit.references.append(reference)
        audit.skip.append(reference.check)
      }
    }
    if let accept = fields.optional("accept") {
      for item in try accept.items() {
        let (acceptance, reference) = try parseAcceptance(item)
        audit.references.append(reference)
        audit.accept.append(acceptance)
      }
    }
    return audit
  }

  private static func parseThresholds(_ node: SpecNode) throws(SpecError) -> AuditThresholds {
    var thresholds = AuditThresholds()
    let settings = AuditThresholds.settings
    for (name, value) in try node.entries(allowed: settings.map(\.key)) {
      guard let setting = settings.first(where: { $0.key == name }) else { continue }
      let number = try value.double()
      guard setting.range.contains(number) else {
        let upper = setting.range.upperBound == .greatestFiniteMagnitude ? "" : " and \(setting.range.upperBound)"
        let bounds =
          upper.isEmpty ? "at least \(setting.range.lowerBound)" : "between \(setting.range.lowerBound)\(upper)"
        throw value.error("must be \(bounds), found \(number)")
      }
      thresholds[keyPath: setting.path] = number
    }
    return thresholds
  }

  private static func parseAcceptance(_ item: SpecNode) throws(SpecError) -> (AuditAcceptance, AuditCheckReference) {
    let fields = try item.fields(allowed: ["check", "subject", "reason"])
    let reference = try checkReference(try fields.required("check", in: item))
    let subject = try fields.optional("subject")?.string()
    let reasonNode = try fields.required("reason", in: item)
    let reason = try reasonNode.string().trimmingCharacters(in: .whitespacesAndNewlines)
    guard !reason.isEmpty else { throw reasonNode.error("say why the finding is accepted") }
    let acceptance = AuditAcceptance(check: reference.check, subject: subject, reason: reason, location: item.location)
    return (acceptance, reference)
  }

  /// A check's name as written; whether the audit has such a check is for the audit to say (`LeakAudit.validate`).
  private static func checkReference(_ node: SpecNode) throws(SpecError) -> AuditCheckReference {
    let text = try node.string()
    return AuditCheckReference(
      check: AuditCheckID(spelling: text), text: text, location: node.location, key: node.key.isEmpty ? nil : node.key)
  }
}
