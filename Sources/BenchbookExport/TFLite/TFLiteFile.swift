/// A TensorFlow Lite file read back: its graph (the operators Benchbook
/// writes mapped back to graph operations), its metadata, and the facts
/// `inspect` prints. Reads files Benchbook wrote; another file is described
/// as far as its operators are ones Benchbook knows.
public struct TFLiteFile: Sendable {
  public var schemaVersion: Int
  public var description: String
  public var graph: TensorGraph
  public var metadata: TFLiteMetadata
  /// Builtin operator names (`FULLY_CONNECTED`) with how many operators use each, in first-use order.
  public var operators: [(name: String, count: Int)]
  public var bufferBytes: Int
  public var signatures: [String]

  /// Whether `bytes` carry the TensorFlow Lite file identifier.
  public static func recognises(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 8 && Array(bytes[4..<8]) == Array(TFLiteSchema.identifier.utf8)
  }

  public init(bytes: [UInt8]) throws(ModelFileError) {
    typealias Schema = TFLiteSchema
    let reader = FlatBufferReader(bytes)
    guard Self.recognises(bytes) else { throw ModelFileError("no TFL3 file identifier at byte 4") }
    let model = try reader.root()
    schemaVersion = try reader.int(model, Schema.Model.version, bytes: 4)
    description = try reader.string(model, Schema.Model.description) ?? ""
    let bufferTables = try reader.tables(model, Schema.Model.buffers)
    let buffers = try bufferTables.map { table throws(ModelFileError) in try reader.bytes(table, Schema.Buffer.data) }
    bufferBytes = buffers.reduce(0) { $0 + $1.count }
    var named: [String: ArraySlice<UInt8>] = [:]
    for entry in try reader.tables(model, Schema.Model.metadata) {
      let name = try reader.string(entry, Schema.Metadata.name) ?? ""
      let index = try reader.int(entry, Schema.Metadata.buffer, bytes: 4)
      guard index < buffers.count else { throw ModelFileError("metadata '\(name)' names buffer \(index)") }
      named[name] = buffers[index]
    }
    metadata = try TFLiteMetadata.read(
      metadata: named[Schema.metadataName], facts: named["benchbook"], files: StoredZip.files(in: bytes))
    signatures = try reader.tables(model, Schema.Model.signatureDefs).map { table throws(ModelFileError) in
      try reader.string(table, Schema.SignatureDef.signatureKey) ?? ""
    }

    let codes = try reader.tables(model, Schema.Model.operatorCodes).map { table throws(ModelFileError) in
      let code = try reader.int(table, Schema.OperatorCode.builtinCode, bytes: 4, signed: true)
      let deprecated = try reader.int(table, Schema.OperatorCode.deprecatedBuiltinCode, bytes: 1, signed: true)
      return Int32(max(code, deprecated))
    }
    let subgraphs = try reader.tables(model, Schema.Model.subgraphs)
    guard subgraphs.count == 1 else { throw ModelFileError("\(subgraphs.count) subgraphs; Benchbook writes one") }
    let subgraph = subgraphs[0]
    var tensors: [GraphTensor] = []
    for table in try reader.tables(subgraph, Schema.SubGraph.tensors) {
      let code = try reader.int(table, Schema.Tensor.type, bytes: 1, signed: true)
      guard let type = Schema.elementType(code) else {
        throw ModelFileError("tensor type \(code) is not one Benchbook reads")
      }
      let shape = try reader.int32s(table, Schema.Tensor.shape).map(Int.init)
      let signature = try reader.int32s(table, Schema.Tensor.shapeSignature).map(Int.init)
      let buffer = try reader.int(table, Schema.Tensor.buffer, bytes: 4)
      guard buffer < buffers.count else { throw ModelFileError("a tensor names buffer \(buffer)") }
      var tensor = GraphTensor(
        name: try reader.string(table, Schema.Tensor.name) ?? "", type: type,
        shape: signature.count == shape.count ? signature : shape)
      if !buffers[buffer].isEmpty { tensor.values = try Self.values(buffers[buffer], type: type, shape: shape) }
      tensors.append(tensor)
    }
    var nodes: [GraphNode] = []
    var counts: [(name: String, count: Int)] = []
    for table in try reader.tables(subgraph, Schema.SubGraph.operators) {
      let index = try reader.int(table, Schema.Operator.opcodeIndex, bytes: 4)
      guard index < codes.count else { throw ModelFileError("an operator names operator code \(index)") }
      let inputs = try reader.int32s(table, Schema.Operator.inputs).map(Int.init)
      let outputs = try reader.int32s(table, Schema.Operator.outputs).map(Int.init)
      guard (inputs + outputs).allSatisfy({ $0 >= 0 && $0 < tensors.count }), !outputs.isEmpty else {
        throw ModelFileError("an operator names a tensor that does not exist, or no output")
      }
      let options = try reader.subtable(table, Schema.Operator.builtinOptions)
      guard let builtin = Schema.Builtin(rawValue: codes[index]) else {
        throw ModelFileError("builtin operator \(codes[index]) is not one Benchbook writes")
      }
      if let i = counts.firstIndex(where: { $0.name == builtin.schemaName }) {
        counts[i].count += 1
      } else {
        counts.append((builtin.schemaName, 1))
      }
      func constant(_ position: Int) throws(ModelFileError) -> [Int] {
        guard position < inputs.count, let values = tensors[inputs[position]].values?.integers else {
          throw ModelFileError("\(builtin.schemaName) needs a constant integer input \(position)")
        }
        return values
      }
      func optionInt(_ id: Int) throws(ModelFileError) -> Int {
        guard let options else { return 0 }
        return try reader.int(options, id, bytes: 4, signed: true)
      }
      let operation: GraphOperation
      var dataInputs = inputs
      switch builtin {
      case .add: operation = .add
      case .subtract: operation = .subtract
      case .multiply: operation = .multiply
      case .divide: operation = .divide
      case .fullyConnected: operation = .fullyConnected
      case .softmax: operation = .softmax
      case .squareRoot: operation = .squareRoot
      case .negate: operation = .negate
      case .lessEqual: operation = .lessEqual
      case .equal: operation = .equal
      case .greater: operation = .greater
      case .selectV2: operation = .select
      case .cast: operation = .cast(tensors[outputs[0]].type)
      case .concatenation: operation = .concatenate(axis: try optionInt(Schema.Options.concatenationAxis))
      case .gather:
        operation = .gather(
          axis: try optionInt(Schema.Options.gatherAxis),
          batchDimensions: try optionInt(Schema.Options.gatherBatchDims))
      case .topKV2:
        guard outputs.count == 2 else { throw ModelFileError("TOPK_V2 gives values and indices") }
        operation = .topK(k: try constant(1).first ?? 0, indexType: tensors[outputs[1]].type)
        dataInputs = [inputs[0]]
      case .oneHot:
        operation = .oneHot(depth: try constant(1).first ?? 0)
        dataInputs = [inputs[0]]
      case .sum:
        let keep = try options.map { options throws(ModelFileError) in
          try reader.int(options, Schema.Options.reducerKeepDims, bytes: 1)
        }
        operation = .sum(axes: try constant(1), keepDimensions: keep == 1)
        dataInputs = [inputs[0]]
      case .reshape:
        operation = .reshape(shape: try constant(1))
        dataInputs = [inputs[0]]
      }
      nodes.append(GraphNode(operation: operation, inputs: dataInputs, outputs: outputs))
    }
    operators = counts
    let graphInputs = try reader.int32s(subgraph, Schema.SubGraph.inputs).map(Int.init)
    let graphOutputs = try reader.int32s(subgraph, Schema.SubGraph.outputs).map(Int.init)
    do throws(GraphError) {
      graph = try TensorGraph(tensors: tensors, nodes: nodes, inputs: graphInputs, outputs: graphOutputs)
    } catch {
      throw ModelFileError("the subgraph does not hold together: \(error.message)")
    }
  }

  /// A buffer's elements.
  static func values(_ data: ArraySlice<UInt8>, type: ElementType, shape: [Int]) throws(ModelFileError) -> TensorValues
  {
    guard let count = ShapeInference.elementCount(shape), count <= data.count else {
      throw ModelFileError("a \(type) buffer of \(data.count) bytes for shape \(shape)")
    }
    let bytes = Array(data)
    func word(_ i: Int) -> UInt32 {
      UInt32(bytes[4 * i]) | UInt32(bytes[4 * i + 1]) << 8 | UInt32(bytes[4 * i + 2]) << 16
        | UInt32(bytes[4 * i + 3]) << 24
    }
    guard type != .string, bytes.count == count * type.width else {
      throw ModelFileError("a \(type) buffer of \(bytes.count) bytes for shape \(shape)")
    }
    switch type {
    case .float32: return .float32((0..<count).map { Float(bitPattern: word($0)) })
    case .int32: return .int32((0..<count).map { Int32(bitPattern: word($0)) })
    case .int64: return .int64((0..<count).map { Int64(word(2 * $0)) | Int64(word(2 * $0 + 1)) << 32 })
    case .bool: return .bool(bytes.map { $0 != 0 })
    case .string: throw ModelFileError("string constants are not read")
    }
  }
}
