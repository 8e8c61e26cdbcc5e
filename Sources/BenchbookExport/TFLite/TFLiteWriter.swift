/// Writes a `TensorGraph` as a TensorFlow Lite FlatBuffer (schema version 3,
/// builtin operators only), with its metadata and the files it names appended.
///
/// Every tensor keeps its name and shape; the batch dimension is written as 1
/// in `shape` and −1 in `shape_signature`, so an app resizes the input for a
/// batch. Constants each get a buffer, their data aligned to 16 bytes.
/// Operator attributes the schema takes as inputs (top-k's k, a sum's axes, a
/// reshape's shape, a one-hot's depth and values) become constant tensors of
/// their own. A signature `serving_default` names the input and output.
enum TFLiteWriter {
  /// A tensor as the file holds it.
  private struct FileTensor {
    var name: String
    var type: ElementType
    var shape: [Int]
    var data: [UInt8]?
  }

  private struct FileOperator {
    var builtin: TFLiteSchema.Builtin
    var inputs: [Int]
    var outputs: [Int]
    var options: (inout FlatBufferBuilder) -> FlatBufferBuilder.Offset?
  }

  /// The file's bytes.
  /// - Parameter limit: the largest file allowed; the estimate is checked before anything large is built.
  static func write(_ graph: TensorGraph, metadata: TFLiteMetadata, limit: Int) throws(ExportError) -> [UInt8] {
    var tensors = graph.tensors.map { tensor in
      FileTensor(name: tensor.name, type: tensor.type, shape: tensor.shape, data: tensor.values.map(Self.data))
    }
    func constant(_ name: String, _ values: TensorValues, shape: [Int]) -> Int {
      tensors.append(FileTensor(name: name, type: values.type, shape: shape, data: data(values)))
      return tensors.count - 1
    }
    var operators: [FileOperator] = []
    for (n, node) in graph.nodes.enumerated() {
      let name = graph.tensors[node.outputs[0]].name
      var op = FileOperator(builtin: .add, inputs: node.inputs, outputs: node.outputs, options: { _ in nil })
      switch node.operation {
      case .fullyConnected: op.builtin = .fullyConnected
      case .softmax:
        op.builtin = .softmax
        op.options = { builder in
          builder.startTable()
          builder.add(TFLiteSchema.Options.softmaxBeta, float: 1)
          return builder.endTable()
        }
      case .add: op.builtin = .add
      case .subtract: op.builtin = .subtract
      case .multiply: op.builtin = .multiply
      case .divide: op.builtin = .divide
      case .squareRoot: op.builtin = .squareRoot
      case .negate: op.builtin = .negate
      case .lessEqual: op.builtin = .lessEqual
      case .equal: op.builtin = .equal
      case .greater: op.builtin = .greater
      case .cast(let type):
        op.builtin = .cast
        let from = graph.tensors[node.inputs[0]].type
        op.options = { builder in
          builder.startTable()
          builder.add(TFLiteSchema.Options.castIn, TFLiteSchema.tensorType(from))
          builder.add(TFLiteSchema.Options.castOut, TFLiteSchema.tensorType(type))
          return builder.endTable()
        }
      case .select: op.builtin = .selectV2
      case .concatenate(let axis):
        op.builtin = .concatenation
        op.options = { builder in
          builder.startTable()
          builder.add(TFLiteSchema.Options.concatenationAxis, Int32(axis))
          return builder.endTable()
        }
      case .gather(let axis, let batchDimensions):
        op.builtin = .gather
        op.options = { builder in
          builder.startTable()
          builder.add(TFLiteSchema.Options.gatherAxis, Int32(axis))
          builder.add(TFLiteSchema.Options.gatherBatchDims, Int32(batchDimensions))
          return builder.endTable()
        }
      case .topK(let k, let indexType):
        guard indexType == .int32 else { throw ExportError("TensorFlow Lite's top-k gives int32 indices") }
        op.builtin = .topKV2
        op.inputs.append(constant("\(name)_k", .int32([Int32(k)]), shape: []))
      case .oneHot(let depth):
        op.builtin = .oneHot
        op.inputs += [
          constant("\(name)_depth", .int32([Int32(depth)]), shape: []),
          constant("\(name)_on", .float32([1]), shape: []), constant("\(name)_off", .float32([0]), shape: []),
        ]
        op.options = { builder in
          builder.startTable()
          builder.add(TFLiteSchema.Options.oneHotAxis, Int32(-1))
          return builder.endTable()
        }
      case .sum(let axes, let keep):
        op.builtin = .sum
        op.inputs.append(constant("\(name)_axes", .int32(axes.map { Int32($0) }), shape: [axes.count]))
        op.options = { builder in
          builder.startTable()
          builder.add(TFLiteSchema.Options.reducerKeepDims, keep)
          return builder.endTable()
        }
      case .reshape(let shape):
        op.builtin = .reshape
        op.inputs.append(constant("\(name)_shape", .int32(shape.map { Int32($0) }), shape: [shape.count]))
      case .argMax, .oneHotEncoder, .treeEnsemble:
        throw ExportError("node \(n) (\(node.operation.name)) has no TensorFlow Lite builtin operator")
      }
      if op.builtin.optionsType != 0 && !Self.hasOwnOptions(node.operation) {
        op.options = { builder in
          builder.startTable()
          return builder.endTable()
        }
      }
      operators.append(op)
    }

    let factsText = Array(metadata.factsText.utf8)
    let metadataBuffer = metadata.flatBuffer()
    let estimate =
      tensors.reduce(0) { $0 + ($1.data?.count ?? 0) + 64 } + metadataBuffer.count + factsText.count
      + operators.count * 64
    guard estimate <= limit else {
      throw ExportError.overLimit(format: "TensorFlow Lite", bytes: estimate, limit: limit)
    }

    var builder = FlatBufferBuilder(reservingCapacity: estimate + 4096)
    // Buffers: 0 is the empty one every non-constant tensor points at; then constants; then metadata.
    var bufferData: [[UInt8]?] = [nil]
    var bufferOf = [Int](repeating: 0, count: tensors.count)
    for (i, tensor) in tensors.enumerated() where tensor.data != nil {
      bufferOf[i] = bufferData.count
      bufferData.append(tensor.data)
    }
    let metadataIndex = bufferData.count
    bufferData.append(metadataBuffer)
    bufferData.append(factsText)
    var buffers: [FlatBufferBuilder.Offset] = []
    for data in bufferData.reversed() {
      let vector = data.map { builder.vector($0, alignment: 16) }
      builder.startTable()
      if let vector { builder.add(TFLiteSchema.Buffer.data, vector) }
      buffers.append(builder.endTable())
    }
    buffers.reverse()

    var tensorTables: [FlatBufferBuilder.Offset] = []
    for (i, tensor) in tensors.enumerated() {
      let dynamic = tensor.shape.contains { $0 < 0 }
      let shape = builder.vector(tensor.shape.map { Int32($0 < 0 ? 1 : $0) })
      let signature = dynamic ? builder.vector(tensor.shape.map { Int32($0) }) : nil
      let name = builder.string(tensor.name)
      builder.startTable()
      builder.add(TFLiteSchema.Tensor.shape, shape)
      builder.add(TFLiteSchema.Tensor.type, TFLiteSchema.tensorType(tensor.type))
      builder.add(TFLiteSchema.Tensor.buffer, UInt32(bufferOf[i]))
      builder.add(TFLiteSchema.Tensor.name, name)
      if let signature { builder.add(TFLiteSchema.Tensor.shapeSignature, signature) }
      tensorTables.append(builder.endTable())
    }

    var codes: [TFLiteSchema.Builtin] = []
    var operatorTables: [FlatBufferBuilder.Offset] = []
    for op in operators {
      if !codes.contains(op.builtin) { codes.append(op.builtin) }
      let inputs = builder.vector(op.inputs.map { Int32($0) })
      let outputs = builder.vector(op.outputs.map { Int32($0) })
      let options = op.options(&builder)
      builder.startTable()
      builder.add(TFLiteSchema.Operator.opcodeIndex, UInt32(codes.firstIndex(of: op.builtin)!))
      builder.add(TFLiteSchema.Operator.inputs, inputs)
      builder.add(TFLiteSchema.Operator.outputs, outputs)
      if let options {
        builder.add(TFLiteSchema.Operator.builtinOptionsType, op.builtin.optionsType)
        builder.add(TFLiteSchema.Operator.builtinOptions, options)
      }
      operatorTables.append(builder.endTable())
    }
    let codeTables = codes.map { code in
      builder.startTable()
      builder.add(TFLiteSchema.OperatorCode.deprecatedBuiltinCode, Int8(min(code.rawValue, 127)))
      builder.add(TFLiteSchema.OperatorCode.version, Int32(1), default: 1)
      builder.add(TFLiteSchema.OperatorCode.builtinCode, code.rawValue)
      return builder.endTable()
    }

    let subgraph: FlatBufferBuilder.Offset
    do {
      let tensorVector = builder.vector(offsets: tensorTables)
      let inputs = builder.vector(graph.inputs.map { Int32($0) })
      let outputs = builder.vector(graph.outputs.map { Int32($0) })
      let operatorVector = builder.vector(offsets: operatorTables)
      let name = builder.string("main")
      builder.startTable()
      builder.add(TFLiteSchema.SubGraph.tensors, tensorVector)
      builder.add(TFLiteSchema.SubGraph.inputs, inputs)
      builder.add(TFLiteSchema.SubGraph.outputs, outputs)
      builder.add(TFLiteSchema.SubGraph.operators, operatorVector)
      builder.add(TFLiteSchema.SubGraph.name, name)
      subgraph = builder.endTable()
    }
    func tensorMaps(_ indices: [Int]) -> FlatBufferBuilder.Offset {
      let maps = indices.map { index in
        let name = builder.string(tensors[index].name)
        builder.startTable()
        builder.add(TFLiteSchema.TensorMap.name, name)
        builder.add(TFLiteSchema.TensorMap.tensorIndex, UInt32(index))
        return builder.endTable()
      }
      return builder.vector(offsets: maps)
    }
    let signatureInputs = tensorMaps(graph.inputs)
    let signatureOutputs = tensorMaps(graph.outputs)
    let signatureKey = builder.string("serving_default")
    builder.startTable()
    builder.add(TFLiteSchema.SignatureDef.inputs, signatureInputs)
    builder.add(TFLiteSchema.SignatureDef.outputs, signatureOutputs)
    builder.add(TFLiteSchema.SignatureDef.signatureKey, signatureKey)
    let signature = builder.endTable()

    let metadataEntries = [(TFLiteSchema.metadataName, metadataIndex), ("benchbook", metadataIndex + 1)].map {
      name, buffer in
      let text = builder.string(name)
      builder.startTable()
      builder.add(TFLiteSchema.Metadata.name, text)
      builder.add(TFLiteSchema.Metadata.buffer, UInt32(buffer))
      return builder.endTable()
    }
    let codeVector = builder.vector(offsets: codeTables)
    let subgraphs = builder.vector(offsets: [subgraph])
    let description = builder.string(metadata.description)
    let bufferVector = builder.vector(offsets: buffers)
    let metadataVector = builder.vector(offsets: metadataEntries)
    let signatures = builder.vector(offsets: [signature])
    builder.startTable()
    builder.add(TFLiteSchema.Model.version, TFLiteSchema.version)
    builder.add(TFLiteSchema.Model.operatorCodes, codeVector)
    builder.add(TFLiteSchema.Model.subgraphs, subgraphs)
    builder.add(TFLiteSchema.Model.description, description)
    builder.add(TFLiteSchema.Model.buffers, bufferVector)
    builder.add(TFLiteSchema.Model.metadata, metadataVector)
    builder.add(TFLiteSchema.Model.signatureDefs, signatures)
    let model = builder.endTable()
    var bytes = builder.finish(root: model, identifier: TFLiteSchema.identifier)
    bytes += StoredZip.archive(metadata.associatedFiles, after: bytes.count)
    guard bytes.count <= limit else {
      throw ExportError.overLimit(format: "TensorFlow Lite", bytes: bytes.count, limit: limit)
    }
    return bytes
  }

  /// Operations whose options table the switch above fills in.
  private static func hasOwnOptions(_ operation: GraphOperation) -> Bool {
    switch operation {
    case .softmax, .cast, .concatenate, .gather, .oneHot, .sum: true
    default: false
    }
  }

  /// A constant's elements as the file stores them: little-endian, booleans one byte each.
  static func data(_ values: TensorValues) -> [UInt8] {
    var out: [UInt8] = []
    func append<T: FixedWidthInteger>(_ value: T) {
      for i in 0..<MemoryLayout<T>.size { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }
    switch values {
    case .float32(let v):
      out.reserveCapacity(v.count * 4)
      for x in v { append(x.bitPattern) }
    case .int32(let v):
      out.reserveCapacity(v.count * 4)
      for x in v { append(x) }
    case .int64(let v):
      for x in v { append(x) }
    case .bool(let v): out = v.map { $0 ? 1 : 0 }
    case .string(let v):
      // TensorFlow Lite's string tensor: a count, count + 1 offsets, then the bytes.
      append(Int32(v.count))
      var offset = 4 * (v.count + 2)
      for s in v {
        append(Int32(offset))
        offset += s.utf8.count
      }
      append(Int32(offset))
      for s in v { out += s.utf8 }
    }
    return out
  }
}
