/// A plain-text account of a graph-format file (TensorFlow Lite, ONNX), as
/// `benchbook inspect` prints it: size, format and versions, the inputs and
/// outputs an app uses, the features, classes and categories the metadata
/// names, the operators, and Benchbook's facts.
enum GraphInspection {
  static func text(_ file: TFLiteFile, fileName: String, sizeBytes: Int) -> String {
    let metadata = file.metadata
    var lines = ["\(fileName): \(ExportMetadata.grouped(sizeBytes)) bytes"]
    lines.append("format: TensorFlow Lite, schema version \(file.schemaVersion)")
    if !metadata.description.isEmpty { lines.append("description: \(metadata.description)") }
    if !metadata.version.isEmpty { lines.append("version: \(metadata.version)") }
    lines += interface(file.graph)
    if !file.signatures.isEmpty { lines.append("signatures: \(file.signatures.joined(separator: ", "))") }
    if !metadata.features.isEmpty {
      lines.append("input columns (\(TFLiteMetadata.featureFile)):")
      for (column, feature) in metadata.features.enumerated() {
        var line = "  \(column): \(feature.name)"
        if let categories = feature.categories {
          line +=
            ", category index: "
            + categories.enumerated().map { "\($0.offset) = \($0.element)" }
            .joined(separator: ", ")
        }
        lines.append(line)
      }
    }
    if !metadata.classes.isEmpty {
      lines.append("classes (\(TFLiteMetadata.labelFile)): \(metadata.classes.joined(separator: ", "))")
    }
    lines.append(
      "operators: \(file.graph.nodes.count) ("
        + file.operators.map { "\($0.name) × \($0.count)" }.joined(separator: ", ") + ")")
    lines.append("constants: \(ExportMetadata.grouped(file.bufferBytes)) bytes in buffers")
    lines += facts(metadata.facts)
    return lines.joined(separator: "\n") + "\n"
  }

  static func text(_ file: ONNXFile, fileName: String, sizeBytes: Int) -> String {
    var lines = ["\(fileName): \(ExportMetadata.grouped(sizeBytes)) bytes"]
    lines.append(
      "format: ONNX, IR version \(file.irVersion), operator sets "
        + file.opsets.map { "\($0.domain) \($0.version)" }.joined(separator: ", "))
    if !file.producer.isEmpty { lines.append("producer: \(file.producer)") }
    if !file.docString.isEmpty { lines.append("description: \(file.docString)") }
    lines += interface(file.graph)
    var categoryLines: [String] = []
    for node in file.graph.nodes {
      if case .oneHotEncoder(let categories) = node.operation, let input = node.inputs.first {
        let shown: [String] =
          switch categories {
          case .string(let values): values
          case .int64(let values): values.map(String.init)
          default: []
          }
        categoryLines.append("  \(file.graph.tensors[input].name): \(shown.joined(separator: ", "))")
      }
      if case .gather = node.operation, file.graph.tensors[node.outputs[0]].name == GraphLowering.labelName,
        let labels = file.graph.tensors[node.inputs[0]].values
      {
        let shown: [String] =
          switch labels {
          case .string(let values): values
          case .int64(let values): values.map(String.init)
          default: []
          }
        lines.append("classes: \(shown.joined(separator: ", "))")
      }
    }
    if !categoryLines.isEmpty { lines += ["categories (OneHotEncoder; any other value is an error):"] + categoryLines }
    lines.append(
      "operators: \(file.graph.nodes.count) ("
        + file.operators.map { "\($0.name) × \($0.count)" }.joined(separator: ", ")
        + ")")
    for node in file.graph.nodes {
      guard case .treeEnsemble(let spec) = node.operation else { continue }
      lines.append(
        "  tree ensemble: \(spec.roots.count) tree\(spec.roots.count == 1 ? "" : "s"), "
          + "\(ExportMetadata.grouped(spec.branches.count)) branches, \(ExportMetadata.grouped(spec.leaves.count)) leaves, "
          + "\(spec.targetCount) output\(spec.targetCount == 1 ? "" : "s")")
    }
    lines.append("constants: \(ExportMetadata.grouped(file.initializerBytes)) bytes in initializers")
    lines += facts(file.metadata)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The inputs and outputs, with their types and shapes (`batch` for the resizable dimension).
  static func interface(_ graph: TensorGraph) -> [String] {
    func rows(_ indices: [Int]) -> [String] {
      let tensors = indices.map { graph.tensors[$0] }
      let width = tensors.map(\.name.count).max() ?? 0
      return tensors.map { tensor in
        let shape = tensor.shape.map { $0 < 0 ? "batch" : String($0) }.joined(separator: ", ")
        return
          "  \(tensor.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(tensor.type.rawValue) [\(shape)]"
      }
    }
    return ["inputs:"] + rows(graph.inputs) + ["outputs:"] + rows(graph.outputs)
  }

  static func facts(_ facts: [String: String]) -> [String] {
    guard !facts.isEmpty else { return [] }
    return ["metadata:"] + facts.keys.sorted().map { "  \($0): \(facts[$0]!)" }
  }
}
