/// Core ML's `Scaler`: f(x) = scaleValue · (x + shiftValue), element-wise.
/// Standardisation is shift −mean, scale 1/sd.
public struct Scaler: Sendable, Equatable, ProtobufMessage {
  public var shiftValue: [Double]
  public var scaleValue: [Double]

  public init(shiftValue: [Double] = [], scaleValue: [Double] = []) {
    self.shiftValue = shiftValue
    self.scaleValue = scaleValue
  }

  init() { self.init(shiftValue: []) }

  func encode(to writer: inout ProtobufWriter) {
    writer.packedDoubles(1, shiftValue)
    writer.packedDoubles(2, scaleValue)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: try reader.appendDoubles(wire, to: &shiftValue)
    case 2: try reader.appendDoubles(wire, to: &scaleValue)
    default: return false
    }
    return true
  }
}
