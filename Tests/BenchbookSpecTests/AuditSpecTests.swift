import BenchbookData
import BenchbookSpec
import Testing

/// When features become known, and the `audit:` section.
@Suite struct AuditSpecTests: SpecParsing {
  static let base = "data: {path: a.csv}\ntarget: y\n"

  @Test func featuresSayWhenTheyBecomeKnown() throws {
    let spec = try parse(
      Self.base + """
        predict_at: booked_at
        features:
          - goal
          - backers: {column: backers_count, known: after-outcome}
          - pledged: {known: after_prediction}
          - dep_delay: {available_at: departed_at + 60}
          - launched: {known: before-prediction, available_at: launched_at}
        """)
    let features = spec.dataset.features
    #expect(features[0].known == nil && features[0].availableAt == nil)
    #expect(features[1].known == .afterOutcome && features[1].source == .column("backers_count"))
    #expect(features[2].known == .afterPrediction, "underscores read as dashes")
    #expect(features[3].availableAt?.source == .expression("departed_at + 60"))
    #expect(features[3].availableAt?.location.line == 8)
    #expect(features[4].known == .beforePrediction && features[4].availableAt?.source == .column("launched_at"))
    #expect(spec.dataset.predictAt?.source == .column("booked_at"))
    #expect(FeatureAvailability.afterOutcome.isLeak && !FeatureAvailability.beforePrediction.isLeak)
  }

  @Test func auditDefaultsAreTheDesignedOnes() throws {
    let audit = try parse(Self.base + "features: [a]\n").audit
    #expect(audit.gap == 0 && audit.accept.isEmpty && audit.skip.isEmpty)
    #expect(audit.screenRows == 20_000 && audit.forwardTestRows == 10_000)
    let t = audit.thresholds
    #expect(t.optimismGap == 0.01 && t.optimismStandardErrors == 2)
    #expect(t.dropColumnShare == 0.25 && t.singleFeatureAUCWarning == 0.99 && t.singleFeatureAUCInfo == 0.95)
    #expect(t.pseudoR2 == 0.8 && t.timeProxySpearman == 0.95)
    #expect(t.duplicatesWarningShare == 0 && t.duplicatesErrorShare == 0.05)
  }

  @Test func auditSectionIsRead() throws {
    let spec = try parse(
      Self.base + """
        features: [a]
        audit:
          gap: 24
          screen_rows: 5000
          forward_test_rows: 2000
          skip: [time_proxy]
          thresholds: {drop_column: 0.3, auc_warning: 0.995, duplicates_error: 0.1}
          accept:
            - {check: post-outcome-feature, subject: dep_delay, reason: "we study the leak"}
            - check: cross-fold-duplicates
              reason: repeated measurements are expected
        """)
    let audit = spec.audit
    #expect(audit.gap == 24 && audit.screenRows == 5000 && audit.forwardTestRows == 2000)
    let timeProxy = AuditCheckID(rawValue: "time-proxy")
    #expect(audit.skip == [timeProxy] && !audit.runs(timeProxy) && audit.runs(AuditCheckID(rawValue: "temporal-split")))
    #expect(audit.thresholds.dropColumnShare == 0.3)
    #expect(audit.thresholds.singleFeatureAUCWarning == 0.995)
    #expect(audit.thresholds.duplicatesErrorShare == 0.1)
    #expect(audit.thresholds.pseudoR2 == 0.8, "the rest keep their defaults")
    #expect(audit.accept.count == 2)
    #expect(
      audit.accept[0].check == AuditCheckID(rawValue: "post-outcome-feature") && audit.accept[0].subject == "dep_delay")
    #expect(audit.accept[0].reason == "we study the leak")
    #expect(audit.accept[1].subject == nil, "no subject accepts every finding of the check")
    #expect(audit.accept[1].covers(check: AuditCheckID(rawValue: "cross-fold-duplicates"), subject: "rows"))
    #expect(!audit.accept[0].covers(check: AuditCheckID(rawValue: "post-outcome-feature"), subject: "pledged"))
  }

  @Test func unknownAuditKeyNamesItsLineAndSuggests() throws {
    let error = try #require(specError(Self.base + "features: [a]\naudit:\n  gapp: 3\n"))
    #expect(error.location.line == 5)
    #expect(error.key == "audit.gapp")
    #expect(error.description.contains("did you mean 'gap'?"))
  }

  @Test func unknownThresholdSuggestsTheClosest() throws {
    let error = try #require(
      specError(Self.base + "features: [a]\naudit:\n  thresholds:\n    drop_colum: 0.3\n"))
    #expect(error.location.line == 6)
    #expect(error.key == "audit.thresholds.drop_colum")
    #expect(error.description.contains("did you mean 'drop_column'?"))
  }

  @Test func thresholdOutOfRangeIsAnError() throws {
    let error = try #require(specError(Self.base + "features: [a]\naudit: {thresholds: {auc_warning: 1.5}}\n"))
    #expect(error.key == "audit.thresholds.auc_warning")
    #expect(error.description.contains("between 0.5 and 1.0"))
  }

  /// The parser records every check a spec names, as written and where; the audit, which knows its checks, says
  /// when one is unknown (`LeakAuditChecksTests.unknownCheckInAcceptSuggests`).
  @Test func namedChecksAreRecordedWhereWritten() throws {
    let spec = try parse(
      Self.base
        + "features: [a]\naudit:\n  skip: [Time_Proxy]\n  accept:\n    - {check: post-outcome-feture, subject: a, reason: known}\n"
    )
    #expect(spec.audit.references.map(\.text) == ["Time_Proxy", "post-outcome-feture"])
    #expect(spec.audit.references.map(\.check.rawValue) == ["time-proxy", "post-outcome-feture"])
    #expect(spec.audit.references.map(\.location.line) == [5, 7])
  }

  @Test func acceptNeedsAReason() throws {
    let missing = try #require(
      specError(Self.base + "features: [a]\naudit:\n  accept:\n    - {check: time-proxy, subject: a}\n"))
    #expect(missing.description.contains("needs 'reason'"))
    let blank = try #require(
      specError(Self.base + "features: [a]\naudit:\n  accept:\n    - {check: time-proxy, reason: \" \"}\n"))
    #expect(blank.description.contains("say why"))
  }

  @Test func badKnownValueSuggests() throws {
    let error = try #require(specError(Self.base + "features:\n  - x: {known: after-outcom}\n"))
    #expect(error.location.line == 4)
    #expect(error.key == "features[0].x.known")
    #expect(error.description.contains("did you mean 'after-outcome'?"))
  }

  @Test func unknownFeatureKeyListsTheAllowedOnes() throws {
    let error = try #require(specError(Self.base + "features:\n  - x: {knwon: after-outcome}\n"))
    #expect(error.description.contains("did you mean 'known'?"))
    #expect(error.description.contains("available_at"))
  }

  @Test func availableAtNeedsPredictAt() throws {
    let error = try #require(specError(Self.base + "features:\n  - a\n  - x: {available_at: t}\n"))
    #expect(error.location.line == 5)
    #expect(error.description.contains("predict_at"))
  }
}
