import BenchbookEvaluation
import BenchbookSpec
import Testing

/// `check --against`: paired time ratios, the base-against-base noise band, instruction
/// counts, and the planted slowdown's arithmetic.
@Suite struct SideBySideJudgeTests {
  static let base = [0.0100, 0.0102, 0.0099, 0.0101, 0.0098, 0.0100, 0.0101]
  let judge = RegressionJudge(limits: RegressionSpec())

  func judged(_ head: [Double], base: [Double] = Self.base) -> RegressionRow {
    judge.judgePairedTime(label: "NB", metric: .fitTime, base: base, head: head, RegressionThresholds())
  }

  @Test func theSameTimesPass() {
    let row = judged(Self.base)
    #expect(row.verdict == .pass)
    #expect(row.factor == 1)
  }

  @Test func threeTimesSlowerFailsWithItsFactor() {
    let row = judged(Self.base.map { $0 * 3 })
    #expect(row.verdict == .fail)
    #expect(abs(row.factor! - 3) < 1e-12)
  }

  /// The factor is the median of per-round ratios, not a ratio of medians.
  @Test func theFactorPairsRounds() {
    let base = [1.0, 2, 3, 4, 5]
    let head = [1.3, 2.6, 3.9, 5.2, 6.5]
    #expect(abs(judged(head, base: base).factor! - 1.3) < 1e-12)
  }

  @Test func aSlowdownInsideTheBasesOwnSpreadIsNotCounted() {
    // The base alone moves by 1.8× from round to round, so 1.6× (above the 1.5× limit) is within noise.
    let noisy = [0.010, 0.018, 0.010, 0.018, 0.010, 0.018, 0.010]
    #expect(abs(RegressionJudge.noiseBand(noisy) - 1.8) < 1e-12)
    let row = judged(noisy.map { $0 * 1.6 }, base: noisy)
    #expect(row.verdict == .pass)
    #expect(row.failLimit == RegressionJudge.noiseBand(noisy))
    #expect(judged(noisy.map { $0 * 1.9 }, base: noisy).verdict == .fail)
  }

  @Test func oneLostRoundDoesNotWidenTheBand() {
    var base = Self.base
    base[3] *= 4
    #expect(RegressionJudge.noiseBand(base) < 1.05)
    #expect(judged(Self.base.map { $0 * 3 }, base: base).verdict == .fail)
  }

  @Test func aModestSlowdownWarns() {
    #expect(judged(Self.base.map { $0 * 1.3 }).verdict == .warn)
  }

  @Test func sideBySideComparesTimesFromAnyProcessor() {
    var old = RegressionJudgeTests.model("NB")
    var new = RegressionJudgeTests.model("NB")
    old.timing.fitSeconds = Self.base
    new.timing.fitSeconds = Self.base.map { $0 * 3 }
    let rows = judge.compare(
      baseline: RegressionJudgeTests.baseline([old], signature: "A"),
      current: RegressionJudgeTests.baseline([new], signature: "B"), sideBySide: true)
    #expect(rows.first { $0.metric == .fitTime }?.verdict == .fail)
    #expect(rows.first { $0.metric == .predictTime }?.verdict == .pass)
  }

  @Test(arguments: [
    (1_000_000, RegressionRow.Verdict.pass), (1_011_000, .warn), (1_051_000, .fail), (980_000, .improved),
  ])
  func instructionLimits(count: Int, expected: RegressionRow.Verdict) {
    var old = RegressionJudgeTests.model("LR")
    var new = RegressionJudgeTests.model("LR")
    old.instructions = .init(fit: 1_000_000, predict: 500)
    new.instructions = .init(fit: count, predict: 500)
    let rows = judge.compare(
      baseline: RegressionJudgeTests.baseline([old]), current: RegressionJudgeTests.baseline([new]))
    #expect(rows.first { $0.metric == .fitInstructions }?.verdict == expected)
    #expect(rows.first { $0.metric == .predictInstructions }?.verdict == .pass)
  }

  @Test func aFractionalRepeatSpreadsTheExtraFits() {
    #expect((0..<6).map { FitRepeat.fits(index: $0, factor: 1.5) } == [1, 2, 1, 2, 1, 2])
    #expect((0..<10).map { FitRepeat.fits(index: $0, factor: 1.2) }.reduce(0, +) == 12)
    #expect((0..<4).map { FitRepeat.fits(index: $0, factor: 3) } == [3, 3, 3, 3])
  }

  @Test(arguments: ["NB", "NB:", "NB:x", ":3", "NB:0.5", "NB:inf"])
  func malformedRepeatsAreRefused(text: String) {
    #expect(throws: FitRepeat.Malformed.self) { try FitRepeat(parsing: text) }
  }

  @Test func aRepeatNamesItsLabelAndFactor() throws {
    let setting = try FitRepeat(parsing: "tree:v2:1.5")
    #expect(setting.label == "tree:v2")
    #expect(setting.factor == 1.5)
  }
}
