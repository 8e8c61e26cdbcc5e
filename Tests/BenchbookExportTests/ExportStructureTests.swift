import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import Foundation
import Testing

/// What an app sees in every exported file: its inputs, outputs, model type,
/// pipeline stages and specification version, read back from the bytes.
@Suite struct ExportStructureTests {
  static let classifierKinds = [
    "LR": "glmClassifier", "LDA": "glmClassifier", "KNN": "kNearestNeighborsClassifier",
    "KNN-7d": "kNearestNeighborsClassifier", "DT": "treeEnsembleClassifier", "NB": "neuralNetworkClassifier",
    "RF": "treeEnsembleClassifier", "HGB": "treeEnsembleClassifier",
  ]

  @Test(arguments: ExportFixtures.Case.allCases, ExportFixtures.Case.modelLabels)
  func decodedInterface(_ fixture: ExportFixtures.Case, label: String) throws {
    let trained = try ExportFixtures.train(fixture, model: label)
    let model = try CoreMLModel(serializedBytes: trained.exported.bytes)
    #expect(model == trained.exported.model)
    guard case .pipelineClassifier = model.kind else {
      Issue.record("the file holds a \(model.kind.name), not a pipeline classifier")
      return
    }

    // One input per spec feature, in spec order, typed as the app passes it.
    let inputs = model.description.inputs
    #expect(inputs.map(\.name) == trained.dataset.features.map(\.name))
    for input in inputs {
      let expected: CoreMLFeatureType.Kind =
        switch input.name {
        case "region": .string
        case "weekday": .int64
        default: .double
        }
      #expect(input.type.kind == expected, "\(input.name)")
      #expect(!input.shortDescription.isEmpty)
    }

    // The predicted class and its probabilities, int64 for the 0/1 target, strings for species.
    let labelKind: CoreMLFeatureType.Kind = fixture.isIris ? .string : .int64
    #expect(model.description.outputs.map(\.name) == ["classLabel", "classProbability"])
    #expect(model.description.outputs[0].type.kind == labelKind)
    #expect(
      model.description.outputs[1].type.kind == .dictionary(keys: fixture.isIris ? .string : .int64))
    #expect(model.description.predictedFeatureName == "classLabel")
    #expect(model.description.predictedProbabilitiesName == "classProbability")
    #expect(model.description.metadata?.shortDescription.contains("Cross-validated log-loss: 0.2500.") == true)
    #expect(model.description.trainingInputs.isEmpty && !model.isUpdatable)

    // Stages: one-hot encoders for categorical features, the vectorizer, a scaler when standardised
    // (always for naive Bayes), then the classifier.
    var expectedStages: [String] = fixture.isIris ? [] : ["oneHotEncoder", "oneHotEncoder"]
    expectedStages.append("featureVectorizer")
    if fixture.standardize || label == "NB" { expectedStages.append("scaler") }
    expectedStages.append(Self.classifierKinds[label]!)
    #expect(model.stages.map(\.model.kind.name) == expectedStages)
    let width = Int64(trained.dataset.x.columns)
    let classifier = model.stages.last!.model
    #expect(classifier.description.inputs.count == 1)
    #expect(classifier.description.inputs[0].type.kind == .multiArray(shape: [width], dataType: .double))

    // The lowest version each model needs: 4 (iOS 13) for kNN, 1 (iOS 11) otherwise.
    let version = label.hasPrefix("KNN") ? 4 : 1
    #expect(model.specificationVersion == version)
    #expect(classifier.specificationVersion == version)
    #expect(model.stages.dropLast().allSatisfy { $0.model.specificationVersion == 1 })
    #expect(trained.exported.specificationVersion.iOSRelease == (label.hasPrefix("KNN") ? "iOS 13" : "iOS 11"))
    #expect(trained.exported.sizeBytes == trained.exported.bytes.count)
  }

  @Test func categoricalInputsBecomeOneHotEncoders() throws {
    let trained = try ExportFixtures.train(.binary, model: "LR")
    let encoders = trained.exported.model.stages.compactMap { stage -> OneHotEncoder? in
      if case .oneHotEncoder(let encoder) = stage.model.kind { return encoder }
      return nil
    }
    #expect(
      encoders.map(\.categories) == [.strings(["east", "north", "south", "west"]), .int64s([0, 1, 2, 3, 4, 5, 6])])
    #expect(encoders.allSatisfy { $0.handleUnknown == .errorOnUnknown && !$0.outputSparse })
  }

  @Test func kNearestNeighboursStoresEveryTrainingRow() throws {
    let trained = try ExportFixtures.train(.irisStandardized, model: "KNN")
    guard case .kNearestNeighborsClassifier(let knn) = trained.exported.model.stages.last?.model.kind,
      let fitted = trained.pipeline.classifier as? FittedKNearestNeighbors
    else {
      Issue.record("not a kNN export")
      return
    }
    #expect(knn.index.sampleCount == fitted.samples.rows)
    #expect(knn.index.numberOfDimensions == 4)
    #expect(knn.index.samples == fitted.samples.values.map { Float($0) })
    #expect(knn.labels == .strings(fitted.labels.map { trained.dataset.classes[$0] }))
    #expect(knn.index.indexType == .kdTree(leafSize: 30))
    #expect(knn.numberOfNeighbors == Int64Parameter(defaultValue: 5, allowed: .set([5])))
    #expect(knn.weighting == .uniform)
    let linear = try ExportFixtures.train(.irisStandardized, model: "KNN-7d")
    guard case .kNearestNeighborsClassifier(let other) = linear.exported.model.stages.last?.model.kind else { return }
    #expect(other.index.indexType == .linear)
    #expect(other.weighting == .inverseDistance)
  }

  @Test func updatableNearestNeighbours() throws {
    let trained = try ExportFixtures.train(.binary, model: "KNN", updatable: true)
    let model = try CoreMLModel(serializedBytes: trained.exported.bytes)
    #expect(model.isUpdatable)
    #expect(model.specificationVersion == 4)
    #expect(model.description.trainingInputs.map(\.name) == ["distance", "hour", "region", "weekday", "classLabel"])
    #expect(model.description.trainingInputs.last?.type.kind == .int64)
    let stages = model.stages.map(\.model)
    #expect(stages.dropLast().allSatisfy { !$0.isUpdatable })
    let knn = stages.last!
    #expect(knn.isUpdatable)
    #expect(knn.description.trainingInputs.map(\.name) == [knn.description.inputs[0].name, "classLabel"])
    guard case .kNearestNeighborsClassifier(let classifier) = knn.kind else { return }
    #expect(classifier.numberOfNeighbors == Int64Parameter(defaultValue: 5, allowed: .range(1...1000)))
    // Updatable or not, it predicts the same.
    let plain = try ExportFixtures.train(.binary, model: "KNN")
    let rows = RawFeatureRows.rows(trained.testX, features: trained.dataset.features)
    #expect(
      try CoreMLEvaluator(model: model).probabilities(rows, classes: trained.dataset.classes)
        == CoreMLEvaluator(model: plain.exported.model).probabilities(rows, classes: trained.dataset.classes))
  }

  /// The same fit gives the same bytes: nothing in the file depends on the clock, the host or the run.
  @Test(arguments: ExportFixtures.Case.modelLabels)
  func reExportIsByteIdentical(label: String) throws {
    let first = try ExportFixtures.train(.binaryStandardized, model: label)
    let second = try ExportFixtures.train(.binaryStandardized, model: label)
    #expect(first.exported.bytes == second.exported.bytes)
    #expect(first.exported.bytes == first.exported.model.serializedBytes())
  }
}
