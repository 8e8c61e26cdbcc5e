/// Checks a decoded model's structure and prepares it for evaluation.
enum ModelCompiler {
  static func compile(_ model: CoreMLModel) throws(EvaluationError) -> any CompiledModel {
    let description = model.description
    switch model.kind {
    case .pipelineClassifier(let pipeline), .pipeline(let pipeline):
      guard !pipeline.models.isEmpty else { throw EvaluationError("the pipeline holds no models") }
      var stages: [any CompiledModel] = []
      for inner in pipeline.models { stages.append(try compile(inner)) }
      return CompiledPipeline(stages: stages)
    case .oneHotEncoder(let encoder):
      return try CompiledOneHotEncoder(encoder, description: description)
    case .featureVectorizer(let vectorizer):
      return try CompiledFeatureVectorizer(vectorizer, description: description)
    case .scaler(let scaler):
      return try CompiledScaler(scaler, description: description)
    case .imputer(let imputer):
      return try CompiledImputer(imputer, description: description)
    case .glmClassifier(let glm):
      return try CompiledGLMClassifier(glm, description: description)
    case .treeEnsembleClassifier(let trees):
      return try CompiledTreeEnsemble(trees, description: description)
    case .kNearestNeighborsClassifier(let knn):
      return try CompiledNearestNeighbors(knn, description: description)
    case .neuralNetworkClassifier(let network):
      return try CompiledNeuralNetwork(network, description: description)
    case .neuralNetwork(let network):
      return try CompiledNetworkTransform(network, description: description)
    case .unsupported, .none:
      throw EvaluationError("cannot evaluate a model of kind \(model.kind.name)")
    }
  }

  /// The single input a transform reads.
  static func onlyInput(_ description: ModelDescription, of kind: String) throws(EvaluationError) -> FeatureDescription
  {
    guard description.inputs.count == 1 else {
      throw EvaluationError("a \(kind) takes one input, not \(description.inputs.count)")
    }
    return description.inputs[0]
  }

  /// The single output a transform writes.
  static func onlyOutput(_ description: ModelDescription, of kind: String) throws(EvaluationError) -> String {
    guard description.outputs.count == 1 else {
      throw EvaluationError("a \(kind) gives one output, not \(description.outputs.count)")
    }
    return description.outputs[0].name
  }

  /// A numeric vector input: an array, or a lone double or int64.
  static func vector(_ value: FeatureValue?, named name: String) throws(EvaluationError) -> [Double] {
    switch value {
    case .array(let values)?: return values
    case .double(let value)?: return [value]
    case .int64(let value)?: return [Double(value)]
    case nil: throw EvaluationError("feature '\(name)' is missing")
    default: throw EvaluationError("feature '\(name)' is not numeric")
    }
  }
}
