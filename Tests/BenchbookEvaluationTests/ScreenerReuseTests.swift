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
}
