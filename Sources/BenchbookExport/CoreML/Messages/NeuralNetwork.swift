/// Core ML's `NeuralNetwork`: layers evaluated in order over named blobs, each model output the blob of its name.
/// Benchbook writes one as a pipeline transform (the missing indicators), not as a classifier.
public struct NeuralNetwork: Sendable, Equatable, ProtobufMessage {
  /// `NeuralNetworkMultiArrayShapeMapping`: how an array input becomes a tensor.
  public enum ArrayShapeMapping: Int64, Sendable, Equatable {
    /// Every array a rank-5 tensor ([d] as [1, 1, d, 1, 1]); the only mapping up to specification version 3, and
    /// not allowed with a layer added in version 4.
    case rank5 = 0
    /// The array's own shape and rank ([d] stays [d]); specification version 4 (iOS 13).
    case exact = 1
  }

  public var layers: [NeuralNetworkLayer]
  /// `arrayInputShapeMapping` (field 5).
  public var arrayShapeMapping: ArrayShapeMapping

  public init(layers: [NeuralNetworkLayer] = [], arrayShapeMapping: ArrayShapeMapping = .rank5) {
    self.layers = layers
    self.arrayShapeMapping = arrayShapeMapping
  }

  init() { self.init(layers: []) }

  func encode(to writer: inout ProtobufWriter) {
    writer.messages(1, layers)
    writer.int(5, arrayShapeMapping.rawValue)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: layers.append(try reader.message(wire))
    case 5: arrayShapeMapping = try reader.enumeration(wire, "array input shape mapping")
    default: return false
    }
    return true
  }
}
