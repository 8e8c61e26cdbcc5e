import BenchbookEvaluation
import BenchbookModels
import BenchbookSpec
import Testing

@Suite struct RegressionJudgeTests {
  static let ratios = [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97]

  static func model(
    _ label: String = "LR", logLoss: Double = 0.5, fitScale: Double = 1, size: Int? = 500_000,
    params: [String: ParameterValue] = ["C": .double(1)]
  ) -> Baseline.Model {
    Baseline.Model(
      label: label, algorithm: "logistic_regression", params: params,
      settingsSha256: Baseline.settingsDigest(algorithm: "logistic_regression", params: params),
      logLoss: .init(mean: logLoss, folds: [logLoss]), accuracy: .init(mean: 0.8, folds: [0.8]),
      brier: .init(mean: 0.2, folds: [0.2]), rocAUC: .init(mean: 0.7, folds: [0.7]),
      timing: ModelTiming(
        label: label, fitRepetitions: 1, predictRepetitions: 1, fitSeconds: ratios.map { $0 * fitScale * 0.01 },
        predictSeconds: ratios.map { $0 * 0.001 }, referenceSeconds: [Double](repeating: 0.01, count: 7)),
      modelSizeBytes: size)
  }

  static func baseline(
    _ models: [Baseline.Model], data: String = "d", signature: String? = "GenuineCPU family 6 model 1 stepping 0",
    reference: String? = ReferenceWorkload.identifier
  ) -> Baseline {
    Baseline(
      benchbook: "0.1.0", experiment: "e", command: "benchbook baseline e.yaml",
      hashes: .init(definition: "x", data: data, foldPlan: "p"),
      machine: .init(cpu: "cpu", cpuSignature: signature, cores: 2, os: "os", swift: "6.3"), timingRounds: 7,
      timingFold: 0, timingReference: reference, models: models)
  }

  func rows(_ old: Baseline.Model, _ new: Baseline.Model) -> [RegressionRow] {
    RegressionJudge(limits: RegressionSpec()).compare(baseline: Self.baseline([old]), current: Self.baseline([new]))
  }

  func verdict(_ rows: [RegressionRow], _ metric: RegressionRow.Metric) -> RegressionRow.Verdict? {
    rows.first { $0.metric == metric }?.verdict
  }

  @Test func identicalMeasurementsPass() {
    let rows = rows(Self.model(), Self.model())
    #expect(rows.allSatisfy { $0.verdict == .pass })
    #expect(rows.count == 7, "log-loss, accuracy, brier, AUC, two times, size")
  }

  /// Limits are max(0.0005, 0.25%) to warn and max(0.002, 1%) to fail; at 0.5 that is 0.00125 and 0.005.
  @Test(arguments: [
    (0.5011, RegressionRow.Verdict.drift), (0.5013, .warn), (0.5049, .warn), (0.5051, .fail), (0.4987, .improved),
    (0.5 + 1e-12, .pass), (Double.nan, .fail), (Double.infinity, .fail),
  ])
  func logLossLimits(current: Double, expected: RegressionRow.Verdict) {
    #expect(verdict(rows(Self.model(), Self.model(logLoss: current)), .logLoss) == expected)
  }

  @Test func smallLogLossUsesTheAbsoluteFloor() {
    // At 0.01, 1% would be 0.0001; the 0.002 floor applies instead.
    #expect(verdict(rows(Self.model(logLoss: 0.01), Self.model(logLoss: 0.0115)), .logLoss) == .warn)
    #expect(verdict(rows(Self.model(logLoss: 0.01), Self.model(logLoss: 0.0121)), .logLoss) == .fail)
  }

  @Test func timeRatios() {
    #expect(verdict(rows(Self.model(), Self.model(fitScale: 1.1)), .fitTime) == .pass)
    #expect(verdict(rows(Self.model(), Self.model(fitScale: 1.3)), .fitTime) == .warn)
    #expect(verdict(rows(Self.model(), Self.model(fitScale: 1.6)), .fitTime) == .fail)
    #expect(verdict(rows(Self.model(), Self.model(fitScale: 3)), .fitTime) == .fail)
    #expect(verdict(rows(Self.model(), Self.model(fitScale: 0.5)), .fitTime) == .improved)
  }

  @Test func aNoisySlowdownIsNotSignificant() {
    // Medians 1.3× apart, but the samples overlap: Mann–Whitney does not call it.
    var noisy = Self.model()
    noisy.timing.fitSeconds = [0.008, 0.02, 0.009, 0.013, 0.014, 0.017, 0.007]
    let row = rows(Self.model(), noisy).first { $0.metric == .fitTime }!
    #expect(row.current! / row.baseline! >= 1.2)
    #expect(row.verdict == .pass)
    #expect(row.pValue! > 0.01)
  }

  @Test func modelSize() {
    #expect(verdict(rows(Self.model(), Self.model(size: 504_000)), .modelSize) == .drift)
    #expect(verdict(rows(Self.model(), Self.model(size: 510_000)), .modelSize) == .warn)
    #expect(verdict(rows(Self.model(), Self.model(size: 600_000)), .modelSize) == .fail)
    #expect(verdict(rows(Self.model(), Self.model(size: 400_000)), .modelSize) == .improved)
  }

  @Test func changedSettingsAreNotComparable() {
    let rows = rows(Self.model(), Self.model(params: ["C": .double(10)]))
    #expect(rows.count == 1)
    #expect(rows[0].verdict == .notComparable)
    #expect(rows[0].note == "settings changed: C 1 → 10")
  }

  @Test func changedDataMakesEveryModelNotComparable() {
    let rows = RegressionJudge(limits: RegressionSpec()).compare(
      baseline: Self.baseline([Self.model("A"), Self.model("B")]),
      current: Self.baseline([Self.model("A"), Self.model("B")], data: "other"))
    #expect(rows.map(\.verdict) == [.notComparable, .notComparable])
    #expect(rows[0].note?.contains("the data file") == true)
  }

  @Test func newAndRemovedModelsAreNoticed() {
    let rows = RegressionJudge(limits: RegressionSpec()).compare(
      baseline: Self.baseline([Self.model("A")]), current: Self.baseline([Self.model("B")]))
    #expect(rows.map(\.note) == ["new: not in the baseline", "no longer in the spec"])
  }

  @Test func perModelLimitsApply() {
    var limits = RegressionSpec()
    var loose = RegressionThresholds()
    loose.timeFailRegardless = 4
    loose.timeFail = 4
    loose.timeWarn = 3.5
    limits.perModel["LR"] = loose
    let rows = RegressionJudge(limits: limits).compare(
      baseline: Self.baseline([Self.model()]), current: Self.baseline([Self.model(fitScale: 3)]))
    #expect(rows.first { $0.metric == .fitTime }?.verdict == .pass)
  }

  /// Another processor, or another reference workload, turns times into notices; scores and sizes are still judged.
  @Test(arguments: [
    ("GenuineCPU family 6 model 2 stepping 0", ReferenceWorkload.identifier, "another processor"),
    ("GenuineCPU family 6 model 1 stepping 0", nil, "another reference workload"),
  ])
  func timesFromAnotherProcessorOrWorkloadAreNotCompared(signature: String?, reference: String?, reason: String) {
    let rows = RegressionJudge(limits: RegressionSpec()).compare(
      baseline: Self.baseline([Self.model()], signature: signature, reference: reference),
      current: Self.baseline([Self.model(logLoss: 0.6, fitScale: 3)]))
    let times = rows.filter { [.fitTime, .predictTime].contains($0.metric) }
    #expect(times.count == 2)
    #expect(times.allSatisfy { $0.verdict == .notComparable && $0.note?.contains(reason) == true })
    #expect(verdict(rows, .logLoss) == .fail)
    #expect(verdict(rows, .modelSize) == .pass)
  }

  @Test func theSameProcessorIsComparedBySignatureOrElseByName() {
    let named = Baseline.Machine(cpu: "AMD EPYC", cores: 2, os: "os", swift: "6.3")
    var signed = named
    signed.cpuSignature = "AuthenticAMD family 25 model 17 stepping 1"
    var other = signed
    other.cpuSignature = "AuthenticAMD family 23 model 49 stepping 0"
    #expect(signed.sameProcessor(as: signed))
    #expect(!signed.sameProcessor(as: other))
    #expect(named.sameProcessor(as: signed), "without a signature the names decide")
  }
}
