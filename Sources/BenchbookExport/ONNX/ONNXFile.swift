/// An ONNX file read back: its graph (the operators Benchbook writes mapped
/// back to graph operations, shapes inferred again), versions and metadata.
public struct ONNXFile: Sendable {
  public var irVersion: Int
  /// Imported operator sets, domain (`ai.onnx` for the default) to version.
  public var opsets: [(domain: String, version: Int)]
  public var producer: String
  public var docString: String
  public var metadata: [String: String]
  public var graph: TensorGraph
  /// Operator types with how many nodes use each, in first-use order (`ai.onnx.ml.TreeEnsemble`).
  public var operators: [(name: String, count: Int)]
  public var initializerBytes: Int

  /// Whether `bytes` parse as an ONNX model with a graph and an operator set.
  public static func recognises(_ bytes: [UInt8]) -> Bool {
    var reader = ProtobufReader(bytes)
    guard let model = try? ONNXModel(from: &reader) else { return false }
    return model.irVersion > 0 && !model.opsetImports.isEmpty && !model.graph.nodes.isEmpty
  }

  public init(bytes: [UInt8]) throws(ModelFileError) {
    var reader = ProtobufReader(bytes)
    let model = try ONNXModel(from: &reader)
    guard model.irVersion > 0, !model.opsetImports.isEmpty else {
      throw ModelFileError("no IR version or operator set: not an ONNX model")
    }
    irVersion = Int(model.irVersion)
    opsets = model.opsetImports.map { ($0.domain.isEmpty ? "ai.onnx" : $0.domain, Int($0.version)) }
    producer = [model.producerName, model.producerVersion].filter { !$0.isEmpty }.joined(separator: " ")
    docString = model.docString
    metadata = Dictionary(model.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    var graph = TensorGraph()
    var byName: [String: Int] = [:]
    var bytesHeld = 0
    do throws(GraphError) {
      for input in model.graph.inputs {
        guard let type = ONNXTensor.elementType(input.elementType) else {
          throw GraphError("input '\(input.name)' has element type \(input.elementType)")
        }
        byName[input.name] = try graph.add(GraphTensor(name: input.name, type: type, shape: input.shape), isInput: true)
      }
      for initializer in model.graph.initializers {
        let values: TensorValues
        do {
          values = try initializer.values()
        } catch {
          throw GraphError(error.message)
        }
        bytesHeld += values.storedBytes
        byName[initializer.name] = try graph.add(
          GraphTensor(
            name: initializer.name, type: values.type, shape: initializer.dims.map { Int($0) }, values: values),
          isInput: false)
      }
      var counts: [(name: String, count: Int)] = []
      for node in model.graph.nodes {
        let fullName = node.domain.isEmpty ? node.opType : "\(node.domain).\(node.opType)"
        if let i = counts.firstIndex(where: { $0.name == fullName }) {
          counts[i].count += 1
        } else {
          counts.append((fullName, 1))
        }
        var inputs: [Int] = []
        for name in node.inputs {
          guard let index = byName[name] else { throw GraphError("node '\(node.name)' reads '\(name)', never written") }
          inputs.append(index)
        }
        let (operation, dataInputs) = try Self.operation(node, inputs: inputs, graph: graph)
        let outputs = try graph.append(operation, dataInputs, outputNames: node.outputs)
        for (name, index) in zip(node.outputs, outputs) { byName[name] = index }
      }
      operators = counts
      graph.outputs = try model.graph.outputs.map { output throws(GraphError) in
        guard let index = byName[output.name] else { throw GraphError("output '\(output.name)' is never written") }
        return index
      }
    } catch {
      throw ModelFileError("the graph does not hold together: \(error.message)")
    }
    self.graph = graph
    initializerBytes = bytesHeld
  }

  /// A node as a graph operation, and the inputs that carry data (attribute inputs dropped).
  static func operation(_ node: ONNXNode, inputs: [Int], graph: TensorGraph) throws(GraphError) -> (
    GraphOperation, [Int]
  ) {
    func int(_ name: String, default fallback: Int = 0) -> Int { node.attribute(name).map { Int($0.int) } ?? fallback }
    func constant(_ position: Int) throws(GraphError) -> [Int] {
      guard position < inputs.count, let values = graph.tensors[inputs[position]].values?.integers else {
        throw GraphError("\(node.opType) '\(node.name)' needs a constant integer input \(position)")
      }
      return values
    }
    switch (node.domain, node.opType) {
    case ("", "Gemm"):
      guard int("transB") == 1, int("transA") == 0 else { throw GraphError("Gemm '\(node.name)' is not x·Wᵀ + b") }
      return (.fullyConnected, inputs)
    case ("", "Softmax"): return (.softmax, inputs)
    case ("", "Add"): return (.add, inputs)
    case ("", "Sub"): return (.subtract, inputs)
    case ("", "Mul"): return (.multiply, inputs)
    case ("", "Div"): return (.divide, inputs)
    case ("", "Sqrt"): return (.squareRoot, inputs)
    case ("", "Neg"): return (.negate, inputs)
    case ("", "LessOrEqual"): return (.lessEqual, inputs)
    case ("", "Equal"): return (.equal, inputs)
    case ("", "Greater"): return (.greater, inputs)
    case ("", "Where"): return (.select, inputs)
    case ("", "Cast"):
      guard let type = ONNXTensor.elementType(Int64(int("to"))) else { throw GraphError("Cast to \(int("to"))") }
      return (.cast(type), inputs)
    case ("", "Concat"): return (.concatenate(axis: int("axis")), inputs)
    case ("", "Gather"): return (.gather(axis: int("axis"), batchDimensions: 0), inputs)
    case ("", "GatherElements"): return (.gather(axis: int("axis"), batchDimensions: 1), inputs)
    case ("", "TopK"): return (.topK(k: try constant(1).first ?? 0, indexType: .int64), [inputs[0]])
    case ("", "OneHot"): return (.oneHot(depth: try constant(1).first ?? 0), [inputs[0]])
    case ("", "ReduceSum"):
      return (.sum(axes: try constant(1), keepDimensions: int("keepdims", default: 1) == 1), [inputs[0]])
    case ("", "Reshape"): return (.reshape(shape: try constant(1)), [inputs[0]])
    case ("", "ArgMax"):
      guard int("keepdims", default: 1) == 0 else { throw GraphError("ArgMax '\(node.name)' keeps its axis") }
      return (.argMax(axis: int("axis")), inputs)
    case (ONNXWriter.mlDomain, "OneHotEncoder"):
      if let strings = node.attribute("cats_strings") {
        return (.oneHotEncoder(categories: .string(strings.strings)), inputs)
      }
      return (.oneHotEncoder(categories: .int64(node.attribute("cats_int64s")?.ints ?? [])), inputs)
    case (ONNXWriter.mlDomain, "TreeEnsemble"):
      return (.treeEnsemble(try treeSpec(node)), inputs)
    default:
      throw GraphError(
        "operator \(node.domain.isEmpty ? "" : node.domain + ".")\(node.opType) is not one Benchbook writes")
    }
  }

  /// `TreeEnsemble`'s attributes read back (`ONNXWriter.treeAttributes`).
  static func treeSpec(_ node: ONNXNode) throws(GraphError) -> TreeEnsembleSpec {
    func ints(_ name: String) -> [Int] { node.attribute(name)?.ints.map { Int($0) } ?? [] }
    func floats(_ name: String) throws(GraphError) -> [Float] {
      guard let tensor = node.attribute(name)?.tensor, case .float32(let values)? = try? tensor.values() else {
        throw GraphError("TreeEnsemble '\(node.name)' has no float \(name)")
      }
      return values
    }
    let features = ints("nodes_featureids")
    let splits = try floats("nodes_splits")
    let (trueIDs, trueLeafs) = (ints("nodes_truenodeids"), ints("nodes_trueleafs"))
    let (falseIDs, falseLeafs) = (ints("nodes_falsenodeids"), ints("nodes_falseleafs"))
    let missing = ints("nodes_missing_value_tracks_true")
    let modes = node.attribute("nodes_modes")?.tensor?.raw ?? []
    let n = features.count
    guard [splits.count, trueIDs.count, trueLeafs.count, falseIDs.count, falseLeafs.count].allSatisfy({ $0 == n }),
      modes.allSatisfy({ $0 == 0 })
    else { throw GraphError("TreeEnsemble '\(node.name)': node attributes differ in length, or not BRANCH_LEQ") }
    let weights = try floats("leaf_weights")
    let targets = ints("leaf_targetids")
    guard weights.count == targets.count else { throw GraphError("TreeEnsemble '\(node.name)': leaf attributes") }
    let leaves = zip(targets, weights).map { TreeEnsembleSpec.Leaf(target: $0, weight: $1) }
    func child(_ id: Int, _ leaf: Int) throws(GraphError) -> TreeEnsembleSpec.Child {
      guard id >= 0, id < (leaf == 1 ? leaves.count : n) else { throw GraphError("TreeEnsemble: child \(id)") }
      return leaf == 1 ? .leaf(id) : .node(id)
    }
    var branches: [TreeEnsembleSpec.Branch] = []
    for i in 0..<n {
      branches.append(
        .init(
          feature: features[i], split: splits[i], whenTrue: try child(trueIDs[i], trueLeafs[i]),
          whenFalse: try child(falseIDs[i], falseLeafs[i]), missingTracksTrue: i < missing.count && missing[i] == 1))
    }
    let roots = ints("tree_roots")
    guard roots.allSatisfy({ $0 >= 0 && $0 < n }) else { throw GraphError("TreeEnsemble '\(node.name)': roots") }
    return TreeEnsembleSpec(targetCount: int("n_targets"), roots: roots, branches: branches, leaves: leaves)

    func int(_ name: String) -> Int { node.attribute(name).map { Int($0.int) } ?? 0 }
  }
}
