import BenchbookConformance
import BenchbookData
import BenchbookEvaluation
import BenchbookModels
import BenchbookReport
import BenchbookSpec
import Foundation
import Testing

/// The registry's done-when test: a model defined only in this target registers itself with one line, and is then
/// parsed from a spec by name, cross-validated, tuned over its setting, reported and held to the conformance suite
/// through the library, with no file of `Sources/` naming it.
@Suite struct FeaturelessModelTests {
  init() {
    ModelRegistry.register(FeaturelessBaseline.descriptor)
  }

  /// scikit-learn's scores from `Fixtures/make_featureless_golden.py`.
  struct Golden: Decodable {
    var prior: [Double]
    var uniform: [Double]
    var tuned: Tuned

    struct Tuned: Decodable {
      var chosen: [String]
      var nested: [Double]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let shared = try! JSONDecoder().decode(
      Golden.self, from: Data(contentsOf: fixtures.appendingPathComponent("featureless-golden.json")))
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Iris in unshuffled 10-fold k-fold, as the golden's script splits it: the model by its id, by an abbreviation
  /// with a search space, and by another abbreviation at its other setting.
  static func withSpec<T>(_ body: (ExperimentSpec) throws -> T) throws -> T {
    // Written to a file: results record the spec file's digest.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("featureless-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("featureless-iris.yaml").path
    try Data(
      """
      name: featureless-iris
      data: {path: \(root.appendingPathComponent("experiments/data/iris.csv").path)}
      target: species
      features: [sepal_length, sepal_width, petal_length, petal_width]
      resampling: {method: kfold, folds: 10}
      models:
        - featureless
        - FL: {strategy: [prior, uniform], label: FL-tuned}
        - prior: {strategy: uniform, label: FL-uniform}
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    return try body(try SpecParser.parse(file: path))
  }

  static func expectFolds(
    _ actual: [Double], _ expected: [Double], _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(actual.count == expected.count, "\(what): fold count", sourceLocation: sourceLocation)
    for (fold, (a, e)) in zip(actual, expected).enumerated() {
      #expect(
        abs(a - e) <= 1e-12, "\(what) fold \(fold + 1): \(a) vs scikit-learn \(e)", sourceLocation: sourceLocation)
    }
  }

  @Test func parsedByEveryNameWithItsSchema() throws {
    let spec = try Self.withSpec { $0 }
    #expect(spec.models.map(\.descriptor) == Array(repeating: FeaturelessBaseline.descriptor, count: 3))
    #expect(spec.models.map(\.label) == ["FL", "FL-tuned", "FL-uniform"])
    #expect(
      spec.models[1].search?.configurations.map(\.parameters)
        == [["strategy": .string("prior")], ["strategy": .string("uniform")]])
    // A misspelt setting is an error naming the nearest one, read from the model's schema.
    #expect {
      try SpecParser.parse(yaml: Self.specText(setting: "stratgy: prior"), path: "s.yaml")
    } throws: { error in
      "\(error)".contains("unknown setting 'stratgy'") && "\(error)".contains("strategy")
    }
  }

  static func specText(setting: String) -> String {
    """
    name: misspelt
    data: {path: \(root.appendingPathComponent("experiments/data/iris.csv").path)}
    target: species
    features: [sepal_length]
    models: [{FL: {\(setting)}}]
    """
  }

  /// A spec without `models:` still compares exactly the built-in models of the default set (the five; not the
  /// registered baseline, nor built-in models outside the set).
  @Test func defaultSetIsUnchanged() throws {
    let spec = try SpecParser.parse(
      yaml: """
        data: {path: \(Self.root.appendingPathComponent("experiments/data/iris.csv").path)}
        target: species
        features: [sepal_length]
        """, path: "defaults.yaml")
    #expect(spec.models.map(\.descriptor) == ModelRegistry.defaultSet)
    #expect(ModelRegistry.defaultSet.map(\.defaultLabel) == ["LR", "LDA", "KNN", "DT", "NB"])
    #expect(ModelRegistry.all.contains(FeaturelessBaseline.descriptor))
  }

  /// Cross-validated, tuned and reported: its log-loss is `DummyClassifier(strategy="prior")`'s to 1e-12, tuning
  /// chooses as `GridSearchCV` does, and the report names it.
  @Test func runsEndToEnd() throws {
    let run = try Self.withSpec { spec in try ExperimentRunner.run(spec, options: ExperimentRunner.Options(jobs: 2)) }
    let golden = Golden.shared
    let models = run.results.models
    #expect(models.map(\.algorithm) == ["featureless", "featureless", "featureless"])
    Self.expectFolds(models[0].folds.map(\.logLoss), golden.prior, "prior")
    Self.expectFolds(models[2].folds.map(\.logLoss), golden.uniform, "uniform")

    let tuning = try #require(models[1].tuning)
    #expect(tuning.chosen.map { $0.params?["strategy"] } == golden.tuned.chosen.map { .string($0) })
    Self.expectFolds(models[1].folds.map(\.logLoss), golden.tuned.nested, "nested")
    #expect(tuning.finalParams == ["strategy": .string("prior")])

    let report = ReportRenderer.markdown(run.results, plots: [])
    #expect(report.contains("featureless baseline"))
    for label in ["FL", "FL-tuned", "FL-uniform"] { #expect(report.contains("| \(label) |"), "\(label)") }
  }

  @Test(arguments: ConformanceCheck.allCases)
  func conforms(_ check: ConformanceCheck) throws {
    try check.run(FeaturelessBaseline.descriptor)
  }

  /// No file under `Sources/` knows the model: everything above went through the registry.
  @Test func sourcesNeverNameIt() throws {
    let sources = Self.root.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    for case let file as URL in files where file.pathExtension == "swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      #expect(!text.contains("Featureless") && !text.contains("featureless"), "\(file.path)")
    }
  }
}
