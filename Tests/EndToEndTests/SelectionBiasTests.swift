import Foundation
import Testing

/// The `selection-bias` check: it warns when the best of several configurations is flattered by
/// being picked on the folds it is scored on, and stays quiet when the optimism is inside the noise.
@Suite(.serialized) struct SelectionBiasTests {
  /// Ten kNN variants, each listed as its own model: the manual way to tune.
  func variantsSpec(data: String, features: [String], target: String, resampling: String) -> String {
    let models = [5, 7, 9, 11, 13, 15, 17, 19, 21, 23].map { "  - KNN: {k: \($0), label: KNN-\($0)}" }
    return """
      name: variants
      data: {path: \(data)}
      target: \(target)
      features: [\(features.joined(separator: ", "))]
      resampling: \(resampling)
      models:
      \(models.joined(separator: "\n"))
      audit: {skip: [cross-fold-duplicates]}

      """
  }

  func selectionFindings(_ spec: String) throws -> [[String: Any]] {
    let scratch = try Scratch()
    let path = try scratch.write("spec.yaml", spec)
    let output = try BenchbookBinary.run(["run", path, "--quiet", "--out", scratch.path("out")])
    #expect(output.status == 0, "\(output.stderr)")
    let results = try ResultsJSON(path: scratch.path("out/results.json"))
    let audit = results.object["audit"] as! [String: Any]
    let checks = (audit["checks"] as! [[String: Any]]).compactMap { $0["check"] as? String }
    #expect(checks.contains("selection-bias"))
    return (audit["findings"] as! [[String: Any]]).filter { $0["check"] as? String == "selection-bias" }
  }

  /// 80 rows of pure noise (`Fixtures/noise-80.csv`): every variant is as good as another, so the
  /// best flat score is luck, and choosing on inner folds shows it (optimism 0.0275 ± 0.0111 nats).
  @Test func tenVariantsOnNoiseWarn() throws {
    let data = BenchbookBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/noise-80.csv").path
    let findings = try selectionFindings(
      variantsSpec(
        data: data, features: ["x1", "x2"], target: "y",
        resampling: "{method: repeated-kfold, folds: 10, repeats: 5, seed: 1}"))
    #expect(findings.count == 1)
    let finding = try #require(findings.first)
    #expect(finding["severity"] as? String == "warning")
    let evidence = finding["evidence"] as! [String: Any]
    #expect(evidence["source"] as? String == "variants")
    #expect((evidence["models"] as? [String])?.count == 10)
    #expect((evidence["chosen"] as? [String])?.count == 50)
    let optimism = try #require(evidence["optimism"] as? Double)
    let standardError = try #require(evidence["standard_error"] as? Double)
    #expect(optimism > max(0.01, 2 * standardError))
  }

  /// The same ten variants on two iris measurements: the choice costs nothing measurable.
  @Test func tenVariantsOnIrisStayInfo() throws {
    let findings = try selectionFindings(
      variantsSpec(
        data: Scratch.shippedData("iris.csv"), features: ["sepal_length", "sepal_width"], target: "species",
        resampling: "{method: stratified-kfold, folds: 10, shuffle: true, seed: 1}"))
    #expect(findings.count == 1)
    #expect(findings.first?["severity"] as? String == "info")
  }

  /// A spec that chooses among nothing records no selection-bias check at all, so its results read as before.
  @Test func absentWithoutAChoice() throws {
    let scratch = try Scratch()
    let spec = """
      name: plain
      data: {path: \(Scratch.shippedData("iris.csv"))}
      target: species
      features: [sepal_length, sepal_width, petal_length, petal_width]
      resampling: {method: stratified-kfold, folds: 5}
      models: [LR, NB]

      """
    let path = try scratch.write("spec.yaml", spec)
    let output = try BenchbookBinary.run(["run", path, "--quiet", "--out", scratch.path("out")])
    #expect(output.status == 0, "\(output.stderr)")
    let audit = try ResultsJSON(path: scratch.path("out/results.json")).object["audit"] as! [String: Any]
    let checks = (audit["checks"] as! [[String: Any]]).compactMap { $0["check"] as? String }
    #expect(!checks.contains("selection-bias"))
  }
}
