import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// The datasets the export tests fit on, read through the spec parser and the
/// loader exactly as `benchbook` reads them, and split into training rows and
/// held-out rows.
enum ExportFixtures {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// A dataset, with or without the spec's standardisation.
  enum Case: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case iris
    case irisStandardized
    case binary
    case binaryStandardized

    var testDescription: String { rawValue }

    var standardize: Bool { self == .irisStandardized || self == .binaryStandardized }

    var isIris: Bool { self == .iris || self == .irisStandardized }

    /// A second configuration of k-nearest neighbours, whose export takes another index and weighting.
    static let variant = (label: "KNN-7d", yaml: "KNN: {k: 7, weights: distance, index: linear, label: KNN-7d}")

    /// Every model label the specs list: every model in the registry's list at its defaults, under its default
    /// label, and the variant. (A model a test target registers exports once its fitted type declares its form.)
    static var modelLabels: [String] { ModelRegistry.builtIn.map(\.defaultLabel) + [variant.label] }

    var yaml: String {
      let preprocess = standardize ? "preprocess: [standardize]\n" : ""
      let models =
        "models:\n" + (ModelRegistry.builtIn.map(\.id) + [Self.variant.yaml]).map { "  - \($0)\n" }.joined() + "\n"
      if isIris {
        return """
          name: iris
          description: Which iris species is this flower?
          data: {path: \(ExportFixtures.directory.appendingPathComponent("iris.csv").path)}
          target: species
          features: [sepal_length, sepal_width, petal_length, petal_width]
          \(preprocess)resampling: {method: stratified-kfold, folds: 5}
          \(models)
          """
      }
      return """
        name: binary
        description: Will the score be positive?
        data: {path: \(ExportFixtures.directory.appendingPathComponent("binary.csv").path)}
        target: {column: score, when: "> 0"}
        features: [distance, hour, region, {weekday: {type: categorical}}]
        \(preprocess)resampling: {folds: 5}
        \(models)
        """
    }
  }

  /// A model fitted on the training rows, exported, and the held-out rows to check it on.
  struct Trained {
    var spec: ExperimentSpec
    var dataset: Dataset
    var model: ModelSpec
    var pipeline: FittedPipeline
    /// What the Core ML file was written from; other formats write the same request.
    var request: ExportRequest
    var exported: ExportedModel
    /// Held-out rows, encoded and unscaled, as `Dataset.x` holds them.
    var testX: Matrix
  }

  static func spec(_ fixture: Case) throws -> ExperimentSpec {
    try SpecParser.parse(yaml: fixture.yaml, path: directory.appendingPathComponent("\(fixture.rawValue).yaml").path)
  }

  static func dataset(_ fixture: Case) throws -> (ExperimentSpec, Dataset) {
    let spec = try spec(fixture)
    return (spec, try Dataset.load(spec.dataset))
  }

  /// Every fourth row is held out; the rest train.
  static func split(_ dataset: Dataset) -> (train: Dataset, testX: Matrix) {
    let test = Array(stride(from: 3, to: dataset.x.rows, by: 4))
    let train = (0..<dataset.x.rows).filter { $0 % 4 != 3 }
    let trainSet = Dataset(
      x: dataset.x.selecting(rows: train), columnNames: dataset.columnNames, features: dataset.features,
      labels: train.map { dataset.labels[$0] }, classes: dataset.classes, time: nil,
      lineNumbers: LineNumbers(train.lazy.map { dataset.lineNumbers[$0] }), provenance: dataset.provenance)
    return (trainSet, dataset.x.selecting(rows: test))
  }

  static func train(_ fixture: Case, model label: String, updatable: Bool = false) throws -> Trained {
    let (spec, dataset) = try dataset(fixture)
    let (trainSet, testX) = split(dataset)
    guard let model = spec.models.first(where: { $0.label == label }) else {
      throw ExportError("no model \(label) in the fixture spec")
    }
    let pipeline = try FoldEvaluator(dataset: trainSet, preprocessing: spec.preprocessing).fitAllRows(model)
    let request = ExportRequest(
      features: dataset.features, classes: dataset.classes, scalers: pipeline.preprocessing.scalers,
      classifier: pipeline.classifier,
      metadata: ExportMetadata(
        experiment: spec.name, question: spec.description, target: fixture.isIris ? "species" : "score > 0",
        modelLabel: label, algorithm: model.descriptor.id, algorithmName: model.descriptor.displayName,
        trainingRows: trainSet.x.rows, crossValidatedLogLoss: 0.25, benchbookVersion: "test"),
      updatable: updatable)
    let exported = try CoreMLExporter.export(request)
    return Trained(
      spec: spec, dataset: dataset, model: model, pipeline: pipeline, request: request, exported: exported,
      testX: testX)
  }
}
