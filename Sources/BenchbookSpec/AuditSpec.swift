import BenchbookData

/// The spec's `audit:` section: how the leak audit runs and which of its
/// findings the author has looked at and accepts.
public struct AuditSpec: Sendable, Hashable {
  /// Rows left out between training and test in the forward-chaining shadow evaluation.
  public var gap: Int
  public var thresholds: AuditThresholds
  public var accept: [AuditAcceptance]
  /// Checks not to run.
  public var skip: [AuditCheckID]
  /// Every check `skip` and `accept` name, as written, for the audit to check against its own.
  public var references: [AuditCheckReference] = []
  /// At most this many training rows feed the statistical screens (a seeded, fixed sample).
  public var screenRows: Int
  /// At most this many test rows per forward-chaining split are scored, evenly spaced in time.
  public var forwardTestRows: Int

  public static let defaultScreenRows = 20_000
  public static let defaultForwardTestRows = 10_000

  public init(
    gap: Int = 0, thresholds: AuditThresholds = AuditThresholds(), accept: [AuditAcceptance] = [],
    skip: [AuditCheckID] = [], screenRows: Int = defaultScreenRows, forwardTestRows: Int = defaultForwardTestRows
  ) {
    self.gap = gap
    self.thresholds = thresholds
    self.accept = accept
    self.skip = skip
    self.screenRows = screenRows
    self.forwardTestRows = forwardTestRows
  }

  /// Whether the spec keeps `check` switched on.
  public func runs(_ check: AuditCheckID) -> Bool { !skip.contains(check) }
}

/// A finding the spec's author accepts, with the reason: it stays in the
/// report, marked accepted, and no longer fails the run.
public struct AuditAcceptance: Sendable, Hashable {
  public var check: AuditCheckID
  /// The finding's subject (a feature, a class, `rows`…); `nil` accepts every finding of the check.
  public var subject: String?
  public var reason: String
  public var location: SourceLocation

  public init(check: AuditCheckID, subject: String?, reason: String, location: SourceLocation) {
    self.check = check
    self.subject = subject
    self.reason = reason
    self.location = location
  }

  /// Whether this acceptance covers a finding of `check` about `subject`.
  public func covers(check: AuditCheckID, subject: String) -> Bool {
    self.check == check && (self.subject == nil || self.subject == subject)
  }
}
