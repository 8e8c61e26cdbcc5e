import BenchbookData
import BenchbookSpec
import Testing

@testable import BenchbookEvaluation

/// The drop-column screen's dedicated logistic regression reuses a spec model's fits only when that model is the
/// same configuration once screened, on the same preprocessing (`SuspectLeakCheck.modelsActingAsScreener`).
@Suite struct ScreenerReuseTests {
  func acting(_ models: String, preprocess: String?) throws -> [Int] {
    let yaml =
      "data: {path: t.csv}\ntarget: y\nfeatures: [a, b]\nmodels: \(models)\n"
      + (preprocess.map { "preprocess: \($0)\n" } ?? "")
    return SuspectLeakCheck.modelsActingAsScreener(try SpecParser.parse(yaml: yaml, path: "/t/spec.yaml"))
  }

  @Test func logisticRegressionAtItsDefaultsOnStandardisedFeaturesIsTheScreener() throws {
    #expect(try acting("[NB, LR, KNN]", preprocess: "[standardize]") == [1])
    // Its own tolerance is loosened to the screen's, as the screener's is.
    #expect(try acting("[{LR: {tol: 1e-10}}]", preprocess: "[standardize]") == [0])
  }

  @Test func anotherSettingOrPreprocessingIsNot() throws {
    #expect(try acting("[LR]", preprocess: nil) == [])
    #expect(try acting("[{LR: {C: 2}}]", preprocess: "[standardize]") == [])
    #expect(try acting("[{LR: {fit_intercept: false}}]", preprocess: "[standardize]") == [])
    #expect(try acting("[LR]", preprocess: "[{standardize: {columns: numeric}}]") == [])
    #expect(try acting("[LDA, NB]", preprocess: "[standardize]") == [])
  }

  /// The screen's first-round fits of logistic regression (the dedicated screener's stand-in) and a one-neighbour
  /// kNN on standardised `rows`.
  func firstRoundFits(_ rows: [[Double]], labels: [Int]) throws -> [[DropColumnScreen.Full?]] {
    let spec = try LeakAuditChecksTests.spec(
      "features: [f0, f1]\nmodels: [LR, {KNN: {k: 1}}]\npreprocess: [standardize]\n")
    #expect(SuspectLeakCheck.modelsActingAsScreener(spec) == [0])
    let data = LeakAuditChecksTests.dataset(rows, labels: labels)
    let check = SuspectLeakCheck(try LeakAuditChecksTests.context(spec, data), run: nil)
    return check.screens(try check.work().map { try $0.run() }).fits
  }

  /// The screen's first round keeps a model's fits only while it could still screen: a fit with clipped rows never
  /// does, so its model (a kNN's whole training sample) is let go.
  @Test func fitsThatClipLetTheirModelGo() throws {
    let (rows, labels) = LeakAuditChecksTests.noisy(600)
    let fits = try firstRoundFits(rows, labels: labels)
    #expect(fits.count == 2 && fits.allSatisfy { $0.count == ScreenSample.innerFolds })
    // Logistic regression clips no row here: kept.
    #expect(fits[0].allSatisfy { ($0?.clippedRows ?? 1) == 0 && $0?.pipeline != nil })
    // One neighbour votes 0 or 1, so each fold clips its misclassified rows.
    #expect(fits[1].allSatisfy { ($0?.clippedRows ?? 0) > 0 && $0?.pipeline == nil && $0?.logLoss.isFinite == true })
    #expect(SuspectLeakCheck.screener(fits) == 0)
  }

  /// The model that stands in for the dedicated screener keeps its fits even where they clip, since drop-column
  /// ranks and refits the features with them (`followUp`).
  @Test func theScreenersStandInKeepsFitsThatClip() throws {
    var (rows, labels) = LeakAuditChecksTests.noisy(600)
    // A row far beyond the others and labelled against them: logistic regression gives its class a probability of 0.
    rows.append([1_000, 5])
    labels.append(0)
    let fits = try firstRoundFits(rows, labels: labels)
    #expect(fits[0].contains { ($0?.clippedRows ?? 0) > 0 })
    #expect(fits[0].allSatisfy { $0?.pipeline != nil })
    #expect(fits[1].allSatisfy { $0?.pipeline == nil })
  }
}
