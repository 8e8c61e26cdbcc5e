/// Core ML's `Metadata`: what Xcode shows about a model. `userDefined` is a
/// protobuf map, written in key order so equal metadata gives equal bytes.
public struct ModelMetadata: Sendable, Equatable, ProtobufMessage {
  public var shortDescription: String
  public var versionString: String
  public var author: String
  public var license: String
  public var userDefined: [String: String]

  public init(
    shortDescription: String = "", versionString: String = "", author: String = "", license: String = "",
    userDefined: [String: String] = [:]
  ) {
    self.shortDescription = shortDescription
    self.versionString = versionString
    self.author = author
    self.license = license
    self.userDefined = userDefined
  }

  init() { self.init(shortDescription: "") }

  func encode(to writer: inout ProtobufWriter) {
    writer.string(1, shortDescription)
    writer.string(2, versionString)
    writer.string(3, author)
    writer.string(4, license)
    for key in userDefined.keys.sorted() {
      writer.message(100, StringPair(key: key, value: userDefined[key] ?? ""))
    }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: shortDescription = try reader.string(wire)
    case 2: versionString = try reader.string(wire)
    case 3: author = try reader.string(wire)
    case 4: license = try reader.string(wire)
    case 100:
      let entry = try reader.message(wire, as: StringPair.self)
      userDefined[entry.key] = entry.value
    default: return false
    }
    return true
  }
}
