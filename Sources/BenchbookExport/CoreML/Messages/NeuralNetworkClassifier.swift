/// Core ML's `NeuralNetworkClassifier`: layers evaluated in order over named
/// blobs; the blob named `labelProbabilityLayerName` holds one probability per
/// class label.
public struct NeuralNetworkClassifier: Sendable, Equatable, ProtobufMessage {
  public var layers: [NeuralNetworkLayer]
  public var classLabels: ClassLabels?
  public var labelProbabilityLayerName: String
  /// How an app trains the updatable layers (specification version 4); nil for a fixed network.
  public var updateParameters: NetworkUpdateParameters?

  public init(
    layers: [NeuralNetworkLayer] = [], classLabels: ClassLabels? = nil, labelProbabilityLayerName: String = "",
    updateParameters: NetworkUpdateParameters? = nil
  ) {
    self.layers = layers
    self.classLabels = classLabels
    self.labelProbabilityLayerName = labelProbabilityLayerName
    self.updateParameters = updateParameters
  }

  init() { self.init(layers: []) }

  func encode(to writer: inout ProtobufWriter) {
    writer.messages(1, layers)
    writer.message(10, updateParameters)
    classLabels?.encode(to: &writer)
    writer.string(200, labelProbabilityLayerName)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: layers.append(try reader.message(wire))
    case 10: updateParameters = try reader.message(wire)
    case 200: labelProbabilityLayerName = try reader.string(wire)
    default: return try ClassLabels.decode(field, wire, from: &reader, into: &classLabels)
    }
    return true
  }
}
