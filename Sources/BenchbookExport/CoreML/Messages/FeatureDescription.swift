/// Core ML's `FeatureDescription`: one named input or output and its type.
public struct FeatureDescription: Sendable, Equatable, ProtobufMessage {
  public var name: String
  public var shortDescription: String
  public var type: CoreMLFeatureType

  public init(name: String, shortDescription: String = "", type: CoreMLFeatureType) {
    self.name = name
    self.shortDescription = shortDescription
    self.type = type
  }

  public init() {
    self.init(name: "", type: CoreMLFeatureType(.double))
  }

  func encode(to writer: inout ProtobufWriter) {
    writer.string(1, name)
    writer.string(2, shortDescription)
    writer.message(3, type)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: name = try reader.string(wire)
    case 2: shortDescription = try reader.string(wire)
    case 3: type = try reader.message(wire)
    default: return false
    }
    return true
  }
}
