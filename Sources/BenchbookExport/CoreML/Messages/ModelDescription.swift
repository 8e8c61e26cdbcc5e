/// Core ML's `ModelDescription`: the features an app passes in and gets back,
/// which of the outputs are the predicted class and its probabilities, the
/// inputs on-device training needs, and metadata.
public struct ModelDescription: Sendable, Equatable, ProtobufMessage {
  public var inputs: [FeatureDescription]
  public var outputs: [FeatureDescription]
  public var predictedFeatureName: String
  public var predictedProbabilitiesName: String
  /// For updatable models: the examples an app supplies to `MLUpdateTask`.
  public var trainingInputs: [FeatureDescription]
  public var metadata: ModelMetadata?

  public init(
    inputs: [FeatureDescription] = [], outputs: [FeatureDescription] = [], predictedFeatureName: String = "",
    predictedProbabilitiesName: String = "", trainingInputs: [FeatureDescription] = [],
    metadata: ModelMetadata? = nil
  ) {
    self.inputs = inputs
    self.outputs = outputs
    self.predictedFeatureName = predictedFeatureName
    self.predictedProbabilitiesName = predictedProbabilitiesName
    self.trainingInputs = trainingInputs
    self.metadata = metadata
  }

  init() { self.init(inputs: []) }

  func encode(to writer: inout ProtobufWriter) {
    writer.messages(1, inputs)
    writer.messages(10, outputs)
    writer.string(11, predictedFeatureName)
    writer.string(12, predictedProbabilitiesName)
    writer.messages(50, trainingInputs)
    writer.message(100, metadata)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: inputs.append(try reader.message(wire))
    case 10: outputs.append(try reader.message(wire))
    case 11: predictedFeatureName = try reader.string(wire)
    case 12: predictedProbabilitiesName = try reader.string(wire)
    case 50: trainingInputs.append(try reader.message(wire))
    case 100: metadata = try reader.message(wire)
    default: return false
    }
    return true
  }
}
