/// Core ML's `Pipeline`: models run in order, wired by feature names (each
/// model reads the app's inputs or earlier models' outputs by name).
public struct Pipeline: Sendable, Equatable, ProtobufMessage {
  public var models: [CoreMLModel]
  /// One name per model, for people reading the file; optional in the format.
  public var names: [String]

  public init(models: [CoreMLModel] = [], names: [String] = []) {
    self.models = models
    self.names = names
  }

  init() { self.init(models: []) }

  func encode(to writer: inout ProtobufWriter) {
    writer.messages(1, models)
    writer.strings(2, names)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: models.append(try reader.message(wire))
    case 2: names.append(try reader.string(wire))
    default: return false
    }
    return true
  }
}
