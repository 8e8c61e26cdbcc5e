import BenchbookSpec
import Testing

/// Work and names are bounded before any data is read, with errors at the spec line responsible.
@Suite struct SpecLimitsTests: SpecParsing {
  func spec(resampling: String, models: String = "[LR, NB]", name: String = "limits") -> String {
    "name: \(name)\ndata: {path: d.csv}\ntarget: y\nfeatures: [a]\nresampling:\n\(resampling)models: \(models)\n"
  }

  @Test func endlessRepeatsAreRefusedAtTheirLine() {
    let error = specError(spec(resampling: "  method: repeated-kfold\n  folds: 5\n  repeats: 999999999999\n"))
    #expect(error?.location.line == 8)
    #expect(error?.key == "resampling.repeats")
    #expect(error?.message.contains("more than the limit of 100000") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("resampling.max_fits") == true)
  }

  @Test func theCeilingCountsConfigurationsAndCanBeRaised() throws {
    // 10 folds × 2,000 repeats × (LR + 6 configurations) = 140,000 fits.
    let tuned = "[LR, {KNN: {k: [1, 3, 5], weights: [uniform, distance]}}]"
    let resampling = "  method: repeated-kfold\n  folds: 10\n  repeats: 2000\n"
    #expect(
      specError(spec(resampling: resampling, models: tuned))?.message.contains(
        "140000 model fits (20000 splits × 7 model configurations)") == true)
    let raised = try parse(spec(resampling: resampling + "  max_fits: 140000\n", models: tuned))
    #expect((raised.resampling as? RepeatedKFold)?.repeats == 2000)
    let atLimit = try parse(spec(resampling: "  method: repeated-kfold\n  folds: 10\n  repeats: 5000\n"))
    // 10 × 5,000 × 2 = 100,000: the default ceiling itself
    #expect((atLimit.resampling as? RepeatedKFold)?.repeats == 5000)
  }

  @Test func foldsAloneAreCountedAtTheirLine() {
    let error = specError(spec(resampling: "  folds: 60000\n"))
    #expect(error?.location.line == 6)
    #expect(error?.key == "resampling.folds")
    #expect(error?.message.contains("120000 model fits (60000 splits × 2 model configurations)") == true)
  }

  @Test func maxFitsMustBeAPositiveWholeNumber() {
    #expect(specError(spec(resampling: "  max_fits: 0\n"))?.key == "resampling.max_fits")
  }

  @Test func longNamesAreRefusedAtTheirLine() throws {
    let error = specError(spec(resampling: "  folds: 2\n", name: String(repeating: "n", count: 5_000)))
    #expect(error?.location.line == 1)
    #expect(error?.key == "name")
    #expect(error?.message.contains("5000 characters long") == true)
    #expect(try parse(spec(resampling: "  folds: 2\n", name: String(repeating: "n", count: 100))).name.count == 100)
  }
}
