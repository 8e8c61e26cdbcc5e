/// Writes a `TensorGraph` as an ONNX model: each graph operation as one ONNX
/// operator (ai.onnx, or ai.onnx.ml for `OneHotEncoder` and `TreeEnsemble`),
/// constants as initializers, attributes the operators take as inputs (k,
/// axes, shapes, depths) as initializers of their own.
///
/// Protocol-buffer encoding is Benchbook's own `ProtobufWriter`, the one its
/// Core ML files use, rather than swift-protobuf: the few ONNX messages
/// needed are small hand-written mirrors (`ONNXModel` and the rest, field
/// numbers from `onnx.proto`), so the build needs no `protoc`, no plugin
/// build and no generated code, and the encoding is deterministic byte for
/// byte.
enum ONNXWriter {
  /// The ONNX operator set the files import, the one ONNX 1.23 defines (ONNX Runtime 1.32 runs it).
  static let opset: Int64 = 28
  /// The ai.onnx.ml operator set: version 5 has `TreeEnsemble`, which replaces `TreeEnsembleClassifier`.
  static let mlOpset: Int64 = 5
  /// The IR version operator set 28 needs.
  static let irVersion: Int64 = 14
  static let mlDomain = "ai.onnx.ml"

  static func model(_ graph: TensorGraph, docString: String, metadata: [String: String], version: String)
    throws(ExportError) -> ONNXModel
  {
    var out = ONNXGraph()
    out.name = "benchbook"
    out.docString = docString
    for tensor in graph.tensors {
      if let values = tensor.values {
        out.initializers.append(ONNXTensor(name: tensor.name, values: values, shape: tensor.shape))
      }
    }
    func constant(_ name: String, _ values: TensorValues, shape: [Int]) -> String {
      out.initializers.append(ONNXTensor(name: name, values: values, shape: shape))
      return name
    }
    for node in graph.nodes {
      let name = graph.tensors[node.outputs[0]].name
      var onnx = ONNXNode()
      onnx.name = name
      onnx.inputs = node.inputs.map { graph.tensors[$0].name }
      onnx.outputs = node.outputs.map { graph.tensors[$0].name }
      switch node.operation {
      case .fullyConnected:
        onnx.opType = "Gemm"
        onnx.attributes = [.int("transB", 1)]
      case .softmax:
        onnx.opType = "Softmax"
        onnx.attributes = [.int("axis", -1)]
      case .add: onnx.opType = "Add"
      case .subtract: onnx.opType = "Sub"
      case .multiply: onnx.opType = "Mul"
      case .divide: onnx.opType = "Div"
      case .squareRoot: onnx.opType = "Sqrt"
      case .negate: onnx.opType = "Neg"
      case .lessEqual: onnx.opType = "LessOrEqual"
      case .equal: onnx.opType = "Equal"
      case .greater: onnx.opType = "Greater"
      case .cast(let type):
        onnx.opType = "Cast"
        onnx.attributes = [.int("to", Int(ONNXTensor.dataType(type)))]
      case .select: onnx.opType = "Where"
      case .concatenate(let axis):
        onnx.opType = "Concat"
        onnx.attributes = [.int("axis", axis)]
      case .gather(let axis, let batchDimensions):
        guard batchDimensions == 0 || (batchDimensions == 1 && axis == 1) else {
          throw ExportError("a gather with \(batchDimensions) batch dimensions on axis \(axis) has no ONNX operator")
        }
        // With one batch dimension and [batch, 1] indices, a gather picks one element per row: GatherElements.
        onnx.opType = batchDimensions == 0 ? "Gather" : "GatherElements"
        onnx.attributes = [.int("axis", axis)]
      case .topK(let k, let indexType):
        guard indexType == .int64 else { throw ExportError("ONNX's TopK gives int64 indices") }
        onnx.opType = "TopK"
        onnx.inputs.append(constant("\(name)_k", .int64([Int64(k)]), shape: [1]))
        onnx.attributes = [.int("axis", -1), .int("largest", 1), .int("sorted", 1)]
      case .oneHot(let depth):
        onnx.opType = "OneHot"
        // ONNX Runtime's kernels pair int32 indices with an int32 depth, int64 with int64.
        let indices = graph.tensors[node.inputs[0]].type
        onnx.inputs += [
          constant(
            "\(name)_depth", indices == .int32 ? .int32([Int32(depth)]) : .int64([Int64(depth)]), shape: []),
          constant("\(name)_values", .float32([0, 1]), shape: [2]),
        ]
        onnx.attributes = [.int("axis", -1)]
      case .sum(let axes, let keep):
        onnx.opType = "ReduceSum"
        onnx.inputs.append(constant("\(name)_axes", .int64(axes.map(Int64.init)), shape: [axes.count]))
        onnx.attributes = [.int("keepdims", keep ? 1 : 0)]
      case .reshape(let shape):
        onnx.opType = "Reshape"
        onnx.inputs.append(constant("\(name)_shape", .int64(shape.map(Int64.init)), shape: [shape.count]))
      case .argMax(let axis):
        onnx.opType = "ArgMax"
        onnx.attributes = [.int("axis", axis), .int("keepdims", 0)]
      case .oneHotEncoder(let categories):
        onnx.opType = "OneHotEncoder"
        onnx.domain = mlDomain
        switch categories {
        case .string(let values): onnx.attributes = [.strings("cats_strings", values)]
        case .int64(let values): onnx.attributes = [.ints("cats_int64s", values.map(Int.init))]
        default: throw ExportError("OneHotEncoder takes int64 or string categories")
        }
        // An unknown category is an error, as it is in the Core ML file.
        onnx.attributes.append(.int("zeros", 0))
      case .treeEnsemble(let spec):
        onnx.opType = "TreeEnsemble"
        onnx.domain = mlDomain
        onnx.attributes = treeAttributes(spec)
      }
      out.nodes.append(onnx)
    }
    func info(_ index: Int) -> ONNXValueInfo {
      let tensor = graph.tensors[index]
      return ONNXValueInfo(name: tensor.name, elementType: ONNXTensor.dataType(tensor.type), shape: tensor.shape)
    }
    out.inputs = graph.inputs.map(info)
    out.outputs = graph.outputs.map(info)
    var model = ONNXModel()
    model.irVersion = irVersion
    model.producerName = "Benchbook"
    model.producerVersion = version
    model.docString = docString
    model.graph = out
    model.opsetImports = [ONNXOpset(domain: "", version: opset), ONNXOpset(domain: mlDomain, version: mlOpset)]
    model.metadata = metadata.keys.sorted().map { StringPair(key: $0, value: metadata[$0]!) }
    return model
  }

  /// `TreeEnsemble`'s attributes: per branch its column, split, mode (0: BRANCH_LEQ), children (a node id, or a
  /// leaf id with the matching `*leafs` flag set) and missing-value direction; per leaf its target and weight.
  static func treeAttributes(_ spec: TreeEnsembleSpec) -> [ONNXAttribute] {
    func ids(_ child: TreeEnsembleSpec.Child) -> (id: Int, isLeaf: Int) {
      switch child {
      case .node(let id): (id, 0)
      case .leaf(let id): (id, 1)
      }
    }
    let branches = spec.branches
    return [
      .int("aggregate_function", 1),
      .ints("leaf_targetids", spec.leaves.map(\.target)),
      .tensor(
        "leaf_weights", ONNXTensor(name: "", values: .float32(spec.leaves.map(\.weight)), shape: [spec.leaves.count])),
      .int("n_targets", spec.targetCount),
      .ints("nodes_falseleafs", branches.map { ids($0.whenFalse).isLeaf }),
      .ints("nodes_falsenodeids", branches.map { ids($0.whenFalse).id }),
      .ints("nodes_featureids", branches.map(\.feature)),
      .ints("nodes_missing_value_tracks_true", branches.map { $0.missingTracksTrue ? 1 : 0 }),
      .tensor("nodes_modes", ONNXTensor(name: "", uint8: Array(repeating: 0, count: branches.count))),
      .tensor("nodes_splits", ONNXTensor(name: "", values: .float32(branches.map(\.split)), shape: [branches.count])),
      .ints("nodes_trueleafs", branches.map { ids($0.whenTrue).isLeaf }),
      .ints("nodes_truenodeids", branches.map { ids($0.whenTrue).id }),
      .int("post_transform", 0),
      .ints("tree_roots", spec.roots),
    ]
  }
}

extension ONNXTensor {
  /// A uint8 tensor (`TreeEnsemble`'s node modes).
  init(name: String, uint8 values: [UInt8]) {
    self.init()
    self.name = name
    dims = [Int64(values.count)]
    dataType = DataType.uint8.rawValue
    raw = values
  }
}
