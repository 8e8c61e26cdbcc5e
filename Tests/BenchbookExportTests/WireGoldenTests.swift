import BenchbookExport
import Foundation
import Testing

/// Benchbook's encoder against Apple's definitions: each model below is also
/// built and serialized by coremltools' `Model_pb2` (Fixtures/make_wire_goldens.py);
/// the bytes must be the same, and decoding the golden file must give the model back.
@Suite struct WireGoldenTests {
  static func golden(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: ExportFixtures.directory.appendingPathComponent(name)))
  }

  static func array(_ width: Int64) -> CoreMLFeatureType {
    CoreMLFeatureType(.multiArray(shape: [width], dataType: .double))
  }

  func expectGolden(_ model: CoreMLModel, _ name: String) throws {
    let golden = try Self.golden(name)
    let bytes = model.serializedBytes()
    #expect(bytes == golden, "\(name): \(bytes.count) bytes written, \(golden.count) in the golden file")
    #expect(try CoreMLModel(serializedBytes: golden) == model)
  }

  @Test func pipelineWithEncodersVectorizerScalerAndGLM() throws {
    let colour = FeatureDescription(
      name: "colour", shortDescription: "One of: blue, red.", type: CoreMLFeatureType(.string))
    let count = FeatureDescription(name: "count", type: CoreMLFeatureType(.int64))
    let size = FeatureDescription(name: "size", shortDescription: "Numeric.", type: CoreMLFeatureType(.double))
    let label = FeatureDescription(name: "classLabel", shortDescription: "The class.", type: CoreMLFeatureType(.int64))
    let probabilities = FeatureDescription(name: "classProbability", type: CoreMLFeatureType(.dictionary(keys: .int64)))
    let colourOneHot = FeatureDescription(name: "colourOneHot", type: Self.array(2))
    let countOneHot = FeatureDescription(name: "countOneHot", type: Self.array(3))
    let features = FeatureDescription(name: "features", type: Self.array(6))
    let scaled = FeatureDescription(name: "scaled", type: Self.array(6))
    let models = [
      CoreMLModel(
        specificationVersion: 1, description: ModelDescription(inputs: [colour], outputs: [colourOneHot]),
        kind: .oneHotEncoder(OneHotEncoder(categories: .strings(["blue", "red"])))),
      CoreMLModel(
        specificationVersion: 1, description: ModelDescription(inputs: [count], outputs: [countOneHot]),
        kind: .oneHotEncoder(OneHotEncoder(categories: .int64s([-3, 0, 300]), handleUnknown: .ignoreUnknown))),
      CoreMLModel(
        specificationVersion: 1,
        description: ModelDescription(inputs: [colourOneHot, countOneHot, size], outputs: [features]),
        kind: .featureVectorizer(
          FeatureVectorizer(inputList: [
            .init(inputColumn: "colourOneHot", inputDimensions: 2),
            .init(inputColumn: "countOneHot", inputDimensions: 3),
            .init(inputColumn: "size", inputDimensions: 1),
          ]))),
      CoreMLModel(
        specificationVersion: 1, description: ModelDescription(inputs: [features], outputs: [scaled]),
        kind: .scaler(
          Scaler(shiftValue: [0, -0.5, 1.25, -0.0, 3, -1e300], scaleValue: [1, 2, 0.5, 4, 1e-300, 7]))),
      CoreMLModel(
        specificationVersion: 1,
        description: ModelDescription(
          inputs: [scaled], outputs: [label, probabilities], predictedFeatureName: "classLabel",
          predictedProbabilitiesName: "classProbability"),
        kind: .glmClassifier(
          GLMClassifier(
            weights: [[0.5, -1, 0, 2, 3.5, -0.25], [1, 0, -2, 0.125, 0, 9]], offsets: [0.1, -0.2],
            classLabels: .int64s([-1, 0, 7])))),
    ]
    let model = CoreMLModel(
      specificationVersion: 1,
      description: ModelDescription(
        inputs: [colour, count, size], outputs: [label, probabilities], predictedFeatureName: "classLabel",
        predictedProbabilitiesName: "classProbability",
        metadata: ModelMetadata(
          shortDescription: "A golden pipeline.", versionString: "Benchbook test", author: "Benchbook",
          userDefined: ["zeta": "last", "alpha": "first"])),
      kind: .pipelineClassifier(
        Pipeline(
          models: models, names: ["oneHot_colour", "oneHot_count", "featureVectorizer", "scaler", "glmClassifier"])))
    try expectGolden(model, "wire-pipeline.mlmodel")
  }

  @Test func treeEnsembleWithEveryBranchMode() throws {
    var nodes: [TreeEnsembleParameters.TreeNode] = []
    let branches: [(UInt64, TreeEnsembleParameters.NodeBehavior, UInt64, Double, UInt64, UInt64, Bool)] = [
      (0, .branchOnValueLessThanEqual, 1, 2.5, 1, 2, true), (1, .branchOnValueLessThan, 0, -1, 3, 4, false),
      (2, .branchOnValueNotEqual, 0, 0, 5, 6, true),
    ]
    for (id, behavior, index, value, trueChild, falseChild, missing) in branches {
      var node = TreeEnsembleParameters.TreeNode()
      node.nodeId = id
      node.behavior = behavior
      node.branchFeatureIndex = index
      node.branchFeatureValue = value
      node.trueChildNodeId = trueChild
      node.falseChildNodeId = falseChild
      node.missingValueTracksTrueChild = missing
      node.relativeHitRate = 1 / Double(id + 1)
      nodes.append(node)
    }
    for (id, values) in [
      (UInt64(3), [(UInt64(0), 1.0)]), (4, [(1, 0.25), (2, 0.75)]), (5, [(2, 1.0)]), (6, [(0, 0.0)]),
    ] {
      var node = TreeEnsembleParameters.TreeNode()
      node.nodeId = id
      node.behavior = .leafNode
      node.evaluationInfo = values.map { (index: $0.0, value: $0.1) }
      nodes.append(node)
    }
    let model = CoreMLModel(
      specificationVersion: 1,
      description: ModelDescription(
        inputs: [FeatureDescription(name: "x", type: Self.array(2))],
        outputs: [
          FeatureDescription(name: "label", type: CoreMLFeatureType(.string)),
          FeatureDescription(name: "probabilities", type: CoreMLFeatureType(.dictionary(keys: .string))),
        ], predictedFeatureName: "label", predictedProbabilitiesName: "probabilities"),
      kind: .treeEnsembleClassifier(
        TreeEnsembleClassifier(
          treeEnsemble: TreeEnsembleParameters(
            nodes: nodes, numPredictionDimensions: 3, basePredictionValue: [0, 0.5, -0.5]),
          postEvaluationTransform: .softMax, classLabels: .strings(["a", "b", "c"]))))
    try expectGolden(model, "wire-tree.mlmodel")
  }

  @Test func updatableNearestNeighbours() throws {
    let x = FeatureDescription(name: "x", type: Self.array(2))
    let label = FeatureDescription(name: "label", type: CoreMLFeatureType(.int64))
    let model = CoreMLModel(
      specificationVersion: 4,
      description: ModelDescription(
        inputs: [x],
        outputs: [
          label, FeatureDescription(name: "probabilities", type: CoreMLFeatureType(.dictionary(keys: .int64))),
        ],
        predictedFeatureName: "label", predictedProbabilitiesName: "probabilities",
        trainingInputs: [
          x, FeatureDescription(name: "label", shortDescription: "The true label.", type: CoreMLFeatureType(.int64)),
        ]),
      isUpdatable: true,
      kind: .kNearestNeighborsClassifier(
        KNearestNeighborsClassifier(
          index: NearestNeighborsIndex(
            numberOfDimensions: 2, samples: [0.5, -1.5, 2, 0, -3.25, 1e-3], sampleCount: 3,
            indexType: .kdTree(leafSize: 30)),
          numberOfNeighbors: Int64Parameter(defaultValue: 2, allowed: .range(1...1000)), labels: .int64s([0, 1, 1]),
          defaultLabel: .int64(-2), weighting: .inverseDistance)))
    try expectGolden(model, "wire-knn.mlmodel")
  }

  @Test func linearNearestNeighboursWithEmptyStrings() throws {
    let model = CoreMLModel(
      specificationVersion: 4,
      description: ModelDescription(
        inputs: [FeatureDescription(name: "x", type: Self.array(1))],
        outputs: [FeatureDescription(name: "label", type: CoreMLFeatureType(.string))], predictedFeatureName: "label"),
      kind: .kNearestNeighborsClassifier(
        KNearestNeighborsClassifier(
          index: NearestNeighborsIndex(numberOfDimensions: 1, samples: [1, 0], sampleCount: 2, indexType: .linear),
          numberOfNeighbors: Int64Parameter(defaultValue: 1, allowed: .set([1])), labels: .strings(["yes", ""]),
          defaultLabel: .string(""), weighting: .uniform)))
    try expectGolden(model, "wire-knn-linear.mlmodel")
  }

  @Test func neuralNetworkLayers() throws {
    let layers = [
      NeuralNetworkLayer(name: "half", inputs: ["x"], outputs: ["h"], kind: .multiply(alpha: 0.5)),
      NeuralNetworkLayer(name: "squares", inputs: ["x", "x"], outputs: ["s"], kind: .multiply(alpha: 0)),
      NeuralNetworkLayer(name: "expand", inputs: ["h", "s"], outputs: ["e"], kind: .concat),
      NeuralNetworkLayer(
        name: "scores", inputs: ["e"], outputs: ["z"],
        kind: .innerProduct(
          .init(
            inputChannels: 4, outputChannels: 2, hasBias: true, weights: [1, -2, 0.5, 0, -0.25, 3, 1e-7, -1e7],
            bias: [0, -1.5]))),
      NeuralNetworkLayer(name: "softmax", inputs: ["z"], outputs: ["p"], kind: .softmax),
    ]
    let model = CoreMLModel(
      specificationVersion: 1,
      description: ModelDescription(
        inputs: [FeatureDescription(name: "x", type: Self.array(2))],
        outputs: [
          FeatureDescription(name: "label", type: CoreMLFeatureType(.string)),
          FeatureDescription(name: "probabilities", type: CoreMLFeatureType(.dictionary(keys: .string))),
        ], predictedFeatureName: "label", predictedProbabilitiesName: "probabilities"),
      kind: .neuralNetworkClassifier(
        NeuralNetworkClassifier(layers: layers, classLabels: .strings(["no", "yes"]), labelProbabilityLayerName: "p")))
    try expectGolden(model, "wire-network.mlmodel")
  }

  /// Naive Bayes's reshape, reduce and two-shape scale layers, and a reduction with every field set.
  @Test func reshapeReduceAndScaleLayers() throws {
    let layers = [
      NeuralNetworkLayer(
        name: "mean", inputs: ["x"], outputs: ["m"],
        kind: .reduce(.init(operation: .average, axis: .channelHeightWidth, epsilon: 1e-6))),
      NeuralNetworkLayer(
        name: "shift", inputs: ["x"], outputs: ["d"],
        kind: .scale(.init(scaleShape: [4], scale: [1, -2, 0.5, 3], biasShape: [1], bias: [-0.25]))),
      NeuralNetworkLayer(
        name: "perClass", inputs: ["d"], outputs: ["r"], kind: .reshape(.init(targetShape: [2, 1, 2]))),
      NeuralNetworkLayer(
        name: "sums", inputs: ["r"], outputs: ["s"], kind: .reduce(.init(operation: .sum, axis: .width))),
      NeuralNetworkLayer(
        name: "scores", inputs: ["s"], outputs: ["z"],
        kind: .scale(.init(scaleShape: [1], scale: [-1], biasShape: [2], bias: [0.5, -1.5]))),
      NeuralNetworkLayer(name: "softmax", inputs: ["z"], outputs: ["p"], kind: .softmax),
    ]
    let model = CoreMLModel(
      specificationVersion: 1,
      description: ModelDescription(
        inputs: [FeatureDescription(name: "x", type: Self.array(4))],
        outputs: [
          FeatureDescription(name: "label", type: CoreMLFeatureType(.string)),
          FeatureDescription(name: "probabilities", type: CoreMLFeatureType(.dictionary(keys: .string))),
        ], predictedFeatureName: "label", predictedProbabilitiesName: "probabilities"),
      kind: .neuralNetworkClassifier(
        NeuralNetworkClassifier(layers: layers, classLabels: .strings(["no", "yes"]), labelProbabilityLayerName: "p")))
    try expectGolden(model, "wire-network-reduce.mlmodel")
  }

  /// Benchbook's interpreter runs the golden file: x·[1, −2, 0.5, 3] − 0.25 = [0.75, −4.25, 1.25, 11.75], as
  /// [2, 1, 2] summed over the width [−3.5, 13], scores 0.5 + 3.5 = 4 and −1.5 − 13 = −14.5.
  @Test func reshapeReduceAndScaleLayersEvaluate() throws {
    let evaluator = try CoreMLEvaluator(serializedBytes: try Self.golden("wire-network-reduce.mlmodel"))
    let prediction = try evaluator.predict(["x": .array([1, 2, 3, 4])])
    let yes = 1 / (1 + exp(18.5))
    #expect(prediction.label == "no")
    #expect(abs(prediction.probabilities["yes"]! - yes) < 1e-15)
    #expect(abs(prediction.probabilities["no"]! - (1 - yes)) < 1e-15)
  }

  @Test func malformedBytesAreRejected() throws {
    let golden = try Self.golden("wire-pipeline.mlmodel")
    #expect(throws: ModelFileError.self) { try CoreMLModel(serializedBytes: Array(golden.dropLast(5))) }
    #expect(throws: ModelFileError.self) { try CoreMLModel(serializedBytes: [0x0B]) }  // wire type 3 (groups)
    #expect(throws: ModelFileError.self) { try CoreMLModel(serializedBytes: [0x08, 0xFF]) }  // truncated varint
  }

  /// An enum field holding a number its enum does not define is an error that names the field.
  @Test func undefinedEnumValuesAreRejected() throws {
    // Field 400 (a GLM classifier), two bytes: field 4 (its class encoding), varint 7.
    let undefined: [UInt8] = [0x82, 0x19, 0x02, 0x20, 0x07]
    #expect(throws: ModelFileError("unknown GLM class encoding 7")) { try CoreMLModel(serializedBytes: undefined) }
    let defined = try CoreMLModel(serializedBytes: [0x82, 0x19, 0x02, 0x20, 0x01])
    guard case .glmClassifier(let glm) = defined.kind else {
      Issue.record("not a GLM classifier: \(defined.kind)")
      return
    }
    #expect(glm.classEncoding == .oneVsRest)
  }

  @Test func unknownFieldsAreSkipped() throws {
    let golden = try Self.golden("wire-knn.mlmodel")
    // Field 99, varint 1, and field 98, a three-byte string, appended at the top level.
    let extended = golden + [0x98, 0x06, 0x01, 0x92, 0x06, 0x03, 0x61, 0x62, 0x63]
    #expect(try CoreMLModel(serializedBytes: extended) == CoreMLModel(serializedBytes: golden))
  }
}
