/// Core ML's `FeatureVectorizer`: concatenates named inputs (scalars or
/// arrays) into one array, in list order.
public struct FeatureVectorizer: Sendable, Equatable, ProtobufMessage {
  /// `InputColumn`: inputColumn = 1, inputDimensions = 2.
  public struct InputColumn: Sendable, Equatable, ProtobufMessage {
    public var inputColumn: String
    public var inputDimensions: UInt64

    public init(inputColumn: String, inputDimensions: UInt64) {
      self.inputColumn = inputColumn
      self.inputDimensions = inputDimensions
    }

    init() { self.init(inputColumn: "", inputDimensions: 0) }

    func encode(to writer: inout ProtobufWriter) {
      writer.string(1, inputColumn)
      writer.uint(2, inputDimensions)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: inputColumn = try reader.string(wire)
      case 2: inputDimensions = try reader.uint64(wire)
      default: return false
      }
      return true
    }
  }

  public var inputList: [InputColumn]

  public init(inputList: [InputColumn] = []) {
    self.inputList = inputList
  }

  init() { self.init(inputList: []) }

  func encode(to writer: inout ProtobufWriter) {
    writer.messages(1, inputList)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    guard field == 1 else { return false }
    inputList.append(try reader.message(wire))
    return true
  }
}
