/// Core ML's `DoubleParameter`: a default value (= 1) and, optionally, the
/// range an app may choose from instead (`DoubleRange` = 10: minValue = 1,
/// maxValue = 2).
public struct DoubleParameter: Sendable, Equatable, ProtobufMessage {
  public var defaultValue: Double
  public var range: ClosedRange<Double>?

  public init(defaultValue: Double = 0, range: ClosedRange<Double>? = nil) {
    self.defaultValue = defaultValue
    self.range = range
  }

  init() { self.init(defaultValue: 0) }

  func encode(to writer: inout ProtobufWriter) {
    writer.double(1, defaultValue)
    if let range { writer.message(10, RangeMessage(minValue: range.lowerBound, maxValue: range.upperBound)) }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: defaultValue = try reader.double(wire)
    case 10:
      let range = try reader.message(wire, as: RangeMessage.self)
      guard range.minValue <= range.maxValue else {
        throw ModelFileError("a DoubleRange's minimum \(range.minValue) exceeds its maximum \(range.maxValue)")
      }
      self.range = range.minValue...range.maxValue
    default: return false
    }
    return true
  }

  struct RangeMessage: ProtobufMessage {
    var minValue = 0.0
    var maxValue = 0.0

    func encode(to writer: inout ProtobufWriter) {
      writer.double(1, minValue)
      writer.double(2, maxValue)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: minValue = try reader.double(wire)
      case 2: maxValue = try reader.double(wire)
      default: return false
      }
      return true
    }
  }
}
