import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import Foundation
import Testing

/// What an app sees in a TensorFlow Lite or ONNX file, read back from the bytes by Benchbook's own readers:
/// inputs and outputs, versions, metadata, the operators a tree was written with, and the limits.
@Suite struct GraphFormatStructureTests {
  static let tflite = TFLiteFormat()
  static let onnx = ONNXFormat()

  @Test(arguments: ExportFixtures.Case.allCases)
  func tensorFlowLiteInterface(_ fixture: ExportFixtures.Case) throws {
    let trained = try ExportFixtures.train(fixture, model: "LR")
    let file = try TFLiteFile(bytes: try Exporter.export(trained.request, as: Self.tflite).bytes)
    #expect(file.schemaVersion == 3)
    let graph = file.graph
    let features = trained.dataset.features
    #expect(graph.inputs.map { graph.tensors[$0].name } == ["features"])
    #expect(graph.tensors[graph.inputs[0]].shape == [-1, features.count])
    #expect(graph.tensors[graph.inputs[0]].type == .float32)
    #expect(graph.outputs.map { graph.tensors[$0].name } == ["probabilities"])
    #expect(graph.tensors[graph.outputs[0]].shape == [-1, trained.dataset.classes.count])
    #expect(file.signatures == ["serving_default"])
    // Feature names, categories and classes: in the metadata's packed files.
    #expect(file.metadata.features.map(\.name) == features.map(\.name))
    #expect(file.metadata.features.map(\.categories) == features.map { $0.type == .categorical ? $0.categories : nil })
    #expect(file.metadata.classes == trained.dataset.classes)
    #expect(file.metadata.facts["benchbook.algorithm"] == "logistic_regression")
    #expect(file.metadata.facts["benchbook.preprocess"] == (fixture.standardize ? "standardize" : "none"))
    #expect(file.metadata.description.contains("Logistic regression (LR) predicting"))
    #expect(file.operators.map(\.name).contains("FULLY_CONNECTED") && file.operators.map(\.name).contains("SOFTMAX"))
  }

  @Test(arguments: ExportFixtures.Case.allCases)
  func onnxInterface(_ fixture: ExportFixtures.Case) throws {
    let trained = try ExportFixtures.train(fixture, model: "DT")
    let file = try ONNXFile(bytes: try Exporter.export(trained.request, as: Self.onnx).bytes)
    #expect(file.irVersion == 14)
    #expect(file.opsets.map(\.domain) == ["ai.onnx", "ai.onnx.ml"] && file.opsets.map(\.version) == [28, 5])
    let graph = file.graph
    let inputs = graph.inputs.map { graph.tensors[$0] }
    if fixture.isIris {
      #expect(inputs.map(\.name) == ["features"] && inputs[0].shape == [-1, 4] && inputs[0].type == .float32)
    } else {
      // One input per feature, typed like the data: numbers, a text category, an integer category.
      #expect(inputs.map(\.name) == ["distance", "hour", "region", "weekday"])
      #expect(inputs.map(\.type) == [.float32, .float32, .string, .int64])
      #expect(inputs.allSatisfy { $0.shape == [-1, 1] })
    }
    let outputs = graph.outputs.map { graph.tensors[$0] }
    #expect(outputs.map(\.name) == ["probabilities", "label"])
    #expect(outputs[0].shape == [-1, trained.dataset.classes.count] && outputs[0].type == .float32)
    #expect(outputs[1].shape == [-1] && outputs[1].type == (fixture.isIris ? .string : .int64))
    #expect(file.operators.map(\.name).contains("ai.onnx.ml.TreeEnsemble"))
    #expect(file.metadata["benchbook.tree_form"] == "ensemble")
  }

  /// A tree is written in whichever form makes the smaller file, and says which: a shallow tree as the matrix
  /// form, a wide one as the traversal; thousands of leaves never make a quadratic file.
  @Test func treeFormIsTheSmaller() throws {
    let shallow = try ExportFixtures.train(.iris, model: "DT")
    let small = try TFLiteFile(bytes: try Exporter.export(shallow.request, as: Self.tflite).bytes)
    #expect(small.metadata.facts["benchbook.tree_form"] == "matrix")

    let (_, dataset) = try ExportFixtures.dataset(.binary)
    let leaves = 4096
    let tree = BalancedTree(leaves: leaves, features: dataset.x.columns)
    let request = ExportRequest(
      features: dataset.features, classes: dataset.classes, scalers: [], classifier: tree,
      metadata: ExportMetadata(
        experiment: "binary", target: "score > 0", modelLabel: "T", algorithm: "tree", algorithmName: "tree"))
    let bytes = try Exporter.export(request, as: Self.tflite).bytes
    let wide = try TFLiteFile(bytes: bytes)
    #expect(wide.metadata.facts["benchbook.tree_form"] == "traversal")
    // 2·4096 − 1 nodes: four int32 or float32 tables and two shares each, plus a step per level.
    #expect(bytes.count < 40 * (2 * leaves), "\(bytes.count) bytes")
    let difference = try ExportFidelity.largestDifference(request, rows: dataset.x, format: Self.tflite)
    #expect(difference <= 1e-6)
  }

  /// A balanced tree of `leaves` leaves splitting column 0 at evenly spaced thresholds.
  struct BalancedTree: FittedClassifier {
    let leaves: Int
    let features: Int
    var classCount: Int { 2 }
    var parameterCount: Int { 0 }

    func form() -> TreeForm {
      var nodes: [TreeForm.Node] = []
      var shares: [Double] = []
      func grow(_ low: Int, _ high: Int) -> Int {
        let index = nodes.count
        nodes.append(.leaf)
        shares += [0, 0]
        if high - low == 1 {
          let share = Double(low % 7) / 6
          shares[2 * index] = 1 - share
          shares[2 * index + 1] = share
          return index
        }
        let middle = (low + high) / 2
        let left = grow(low, middle)
        let right = grow(middle, high)
        nodes[index] = TreeForm.Node(
          feature: 0, threshold: 80 + Double(middle) * 3920 / Double(leaves), left: left, right: right,
          missingGoesLeft: true)
        return index
      }
      _ = grow(0, leaves)
      return TreeForm(nodes: nodes, shares: shares, classCount: 2, featureCount: features)
    }

    func exportForm() throws(ExportFormError) -> ExportForm { .tree(form()) }

    func predictProbabilities(_ x: Matrix) -> Matrix {
      let tree = form()
      var out = Matrix(rows: x.rows, columns: 2)
      for r in 0..<x.rows {
        var node = 0
        while !tree.nodes[node].isLeaf {
          let split = tree.nodes[node]
          node = Double(Float(x[r, split.feature])) <= split.threshold ? split.left : split.right
        }
        out[r, 0] = tree.shares[2 * node]
        out[r, 1] = tree.shares[2 * node + 1]
      }
      return out
    }
  }

  /// Over the limit (the format's, or the caller's): an error naming the size, and no bytes.
  @Test(arguments: ExportFormats.ids)
  func overTheLimitIsAnError(_ id: String) throws {
    let trained = try ExportFixtures.train(.iris, model: "KNN")
    let format = try #require(ExportFormats.named(id))
    #expect(format.sizeLimit == Int(Int32.max))
    #expect {
      try Exporter.export(trained.request, as: format, maxBytes: 1000)
    } throws: { error in
      "\(error)".contains("file would take") && "\(error)".contains("over the limit of 1,000 bytes")
    }
  }

  /// An updatable logistic regression: an updatable inner product and softmax, the update parameters set.
  @Test func updatableLogisticRegression() throws {
    let trained = try ExportFixtures.train(.iris, model: "LR")
    var request = trained.request
    request.updatable = true
    request.updateSettings = UpdateSettings(learningRate: 0.05, epochs: 7, miniBatchSize: 4)
    let model = try CoreMLModel(serializedBytes: try Exporter.export(request, as: CoreMLFormat()).bytes)
    #expect(model.isUpdatable && model.specificationVersion == 4)
    #expect(model.description.trainingInputs.map(\.name).last == "classLabel")
    guard case .neuralNetworkClassifier(let network) = model.stages.last?.model.kind else {
      Issue.record("the classifier is not a neural network")
      return
    }
    #expect(network.layers.map(\.isUpdatable) == [true, false])
    let update = try #require(network.updateParameters)
    #expect(update.learningRate.defaultValue == 0.05 && update.epochs.defaultValue == 7)
    #expect(update.miniBatchSize.defaultValue == 4 && update.shuffle)
    #expect(update.lossInput == network.labelProbabilityLayerName && update.lossTarget == "classLabel")
    // It still predicts what the fitted model predicts (float32 weights).
    let rows = RawFeatureRows.rows(trained.testX, features: trained.dataset.features)
    let fromFile = try CoreMLEvaluator(model: model).probabilities(rows, classes: trained.dataset.classes)
    let expected = trained.pipeline.predictProbabilities(trained.testX)
    #expect(zip(fromFile.values, expected.values).allSatisfy { abs($0 - $1) <= 1e-5 })
  }

  @Test(arguments: ["LDA", "NB", "DT"])
  func updatableNeedsLogisticRegressionOrNeighbours(_ label: String) throws {
    var request = try ExportFixtures.train(.iris, model: label).request
    request.updatable = true
    #expect {
      try Exporter.export(request, as: CoreMLFormat())
    } throws: { error in
      "\(error)".hasPrefix("--updatable: a ") && "\(error)".contains("cannot learn from an app's examples in Core ML")
    }
  }

  @Test(arguments: ["tflite", "onnx"])
  func graphFormatsAreNotUpdatable(_ id: String) throws {
    var request = try ExportFixtures.train(.iris, model: "KNN").request
    request.updatable = true
    #expect {
      try Exporter.export(request, as: try #require(ExportFormats.named(id)))
    } throws: { error in
      "\(error)".contains("cannot learn from an app's examples in") && "\(error)".contains("it can in Core ML")
    }
  }
}
