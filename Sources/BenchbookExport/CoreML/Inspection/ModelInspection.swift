/// A plain-text account of a Core ML model, as `benchbook inspect` prints it:
/// size, type, specification version and the releases that load it, the
/// app-facing inputs and outputs, and each pipeline stage with its parameters.
public enum ModelInspection {
  public static func text(_ model: CoreMLModel, fileName: String, sizeBytes: Int) -> String {
    let version = SpecificationVersion(model.specificationVersion)
    var lines = ["\(fileName): \(ExportMetadata.grouped(sizeBytes)) bytes"]
    lines.append("type: \(model.kind.name)")
    lines.append("specification version: \(version)")
    lines.append("updatable: \(model.isUpdatable ? "yes" : "no")")
    if let metadata = model.description.metadata {
      if !metadata.shortDescription.isEmpty { lines.append("description: \(metadata.shortDescription)") }
      if !metadata.versionString.isEmpty { lines.append("version: \(metadata.versionString)") }
    }
    lines.append("inputs:")
    lines += table(model.description.inputs)
    lines.append("outputs:")
    lines += table(model.description.outputs)
    if !model.description.trainingInputs.isEmpty {
      lines.append("training inputs:")
      lines += table(model.description.trainingInputs)
    }
    let stages = model.stages
    if !stages.isEmpty {
      lines.append("pipeline stages:")
      let nameWidth = stages.map(\.name.count).max() ?? 0
      for (i, stage) in stages.enumerated() {
        let inner = stage.model
        let inputs = inner.description.inputs.map(\.name).joined(separator: ", ")
        let outputs = inner.description.outputs.map(\.name).joined(separator: ", ")
        lines.append(
          "  \(i + 1). \(stage.name.padding(nameWidth))  \(inner.kind.name), spec \(inner.specificationVersion)"
            + (inner.isUpdatable ? ", updatable" : ""))
        lines.append("     \(inputs) → \(outputs)")
        if let detail = detail(inner.kind) { lines.append("     \(detail)") }
      }
    } else if let detail = detail(model.kind) {
      lines.append("model: \(detail)")
    }
    if let userDefined = model.description.metadata?.userDefined, !userDefined.isEmpty {
      lines.append("metadata:")
      for key in userDefined.keys.sorted() { lines.append("  \(key): \(userDefined[key] ?? "")") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func table(_ features: [FeatureDescription]) -> [String] {
    let nameWidth = features.map(\.name.count).max() ?? 0
    let typeWidth = features.map(\.type.description.count).max() ?? 0
    return features.map { feature in
      let head = "  \(feature.name.padding(nameWidth))  \(feature.type.description.padding(typeWidth))"
      return feature.shortDescription.isEmpty ? head : "\(head)  \(feature.shortDescription)"
    }
  }

  /// What a stage holds, in a line.
  static func detail(_ kind: CoreMLModel.Kind) -> String? {
    switch kind {
    case .oneHotEncoder(let encoder):
      return "\(encoder.categories.count) \(encoder.categories.isInt64 ? "int64" : "string") categories, "
        + (encoder.handleUnknown == .errorOnUnknown ? "unknown category is an error" : "unknown category → zeros")
    case .featureVectorizer(let vectorizer):
      let width = vectorizer.inputList.reduce(0) { $0 + Int($1.inputDimensions) }
      return "\(vectorizer.inputList.count) inputs → \(width) columns"
    case .scaler(let scaler):
      return "(x + shift) × scale over \(max(scaler.shiftValue.count, scaler.scaleValue.count)) columns"
    case .imputer(let imputer):
      switch imputer.imputed {
      case .doubleArray(let values): return "NaN → the training fold's fill over \(values.count) columns"
      case .string(let value): return "\"\" → \"\(value)\""
      case .int64(let value): return "\(MissingSentinel.integer) → \(value)"
      case .double(let value): return "NaN → \(value)"
      case .none: return "no imputed value"
      }
    case .glmClassifier(let glm):
      let width = glm.weights.first?.count ?? 0
      let encoding = glm.classEncoding == .referenceClass ? "reference class" : "one vs rest"
      let transform = glm.postEvaluationTransform == .logit ? "logit" : "probit"
      return "\(glm.weights.count) weight row\(glm.weights.count == 1 ? "" : "s") × \(width), \(transform), "
        + "\(encoding), \(glm.classLabels?.count ?? 0) classes"
    case .treeEnsembleClassifier(let trees):
      let nodes = trees.treeEnsemble.nodes
      let leaves = nodes.count { $0.behavior == .leafNode }
      let treeCount = Set(nodes.map(\.treeId)).count
      return "\(treeCount) tree\(treeCount == 1 ? "" : "s"), \(ExportMetadata.grouped(nodes.count)) nodes "
        + "(\(ExportMetadata.grouped(leaves)) leaves), \(trees.treeEnsemble.numPredictionDimensions) dimension"
        + "\(trees.treeEnsemble.numPredictionDimensions == 1 ? "" : "s"), \(trees.classLabels?.count ?? 0) classes"
    case .kNearestNeighborsClassifier(let knn):
      let index =
        switch knn.index.indexType {
        case .linear?: "linear index"
        case .kdTree(let leafSize)?: "kd-tree index (leaf size \(leafSize))"
        case nil: "no index"
        }
      let weighting =
        switch knn.weighting {
        case .uniform?: "uniform"
        case .inverseDistance?: "inverse-distance"
        case nil: "no"
        }
      var neighbours = "k = \(knn.numberOfNeighbors.defaultValue)"
      switch knn.numberOfNeighbors.allowed {
      case .range(let range)?: neighbours += " (app may choose \(range.lowerBound)…\(range.upperBound))"
      case .set(let values)? where values.count > 1:
        neighbours += " (app may choose \(values.map(String.init).joined(separator: ", ")))"
      default: break
      }
      return "\(ExportMetadata.grouped(knn.index.sampleCount)) samples × \(knn.index.numberOfDimensions) float32, "
        + "\(neighbours), \(weighting) weighting, \(index)"
    case .neuralNetwork(let network):
      let mapping = network.arrayShapeMapping == .exact ? "exact array mapping" : "rank-5 array mapping"
      return "\(layers(network.layers)); \(weightCount(network.layers)) float32 weights, \(mapping)"
    case .neuralNetworkClassifier(let network):
      var text = "\(layers(network.layers)); \(weightCount(network.layers)) float32 weights"
      if let update = network.updateParameters {
        func range(_ parameter: DoubleParameter) -> String {
          parameter.range.map { " (\(NumberText.short($0.lowerBound))…\(NumberText.short($0.upperBound)))" } ?? ""
        }
        func allowed(_ parameter: Int64Parameter) -> String {
          switch parameter.allowed {
          case .range(let r)?: " (\(r.lowerBound)…\(r.upperBound))"
          case .set(let values)?: " (\(values.map(String.init).joined(separator: ", ")))"
          case nil: ""
          }
        }
        text +=
          "; updated by SGD on \(update.lossName)(\(update.lossInput), \(update.lossTarget)): learning rate "
          + "\(NumberText.short(update.learningRate.defaultValue))\(range(update.learningRate)), epochs "
          + "\(update.epochs.defaultValue)\(allowed(update.epochs)), mini-batch \(update.miniBatchSize.defaultValue)"
          + allowed(update.miniBatchSize)
      }
      return text
    case .pipelineClassifier(let pipeline), .pipeline(let pipeline):
      return "\(pipeline.models.count) models"
    case .unsupported, .none:
      return nil
    }
  }

  /// `3 layers: name (kind) → …`.
  private static func layers(_ layers: [NeuralNetworkLayer]) -> String {
    let names = layers.map { layer in
      let kind =
        switch layer.kind {
        case .innerProduct: "innerProduct"
        case .softmax: "softmax"
        case .multiply: "multiply"
        case .concat: "concat"
        case .scale: "scale"
        case .reshape(let parameters): "reshape to \(parameters.targetShape.map(String.init).joined(separator: "×"))"
        case .reduce(let parameters): "reduce \(parameters.operation) over \(parameters.axis)"
        case .notEqual(let alpha): layer.inputs.count == 1 ? "notEqual \(NumberText.short(Double(alpha)))" : "notEqual"
        case .concatND(let axis): "concatND on axis \(axis)"
        case .unsupported(let field): "layer \(field)"
        }
      return "\(layer.name) (\(kind))"
    }
    return "\(layers.count) layers: \(names.joined(separator: " → "))"
  }

  /// The float32 weights and biases of the inner products and scales.
  private static func weightCount(_ layers: [NeuralNetworkLayer]) -> Int {
    layers.reduce(0) { total, layer in
      if case .innerProduct(let parameters) = layer.kind {
        return total + parameters.weights.count + parameters.bias.count
      }
      if case .scale(let parameters) = layer.kind { return total + parameters.scale.count + parameters.bias.count }
      return total
    }
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
