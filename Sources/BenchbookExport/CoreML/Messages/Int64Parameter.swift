/// Core ML's `Int64Parameter`: a default value and, optionally, the values an
/// app may choose instead (through `MLModelConfiguration.parameters`).
public struct Int64Parameter: Sendable, Equatable, ProtobufMessage {
  public enum Allowed: Sendable, Equatable {
    case range(ClosedRange<Int64>)
    case set([Int64])
  }

  public var defaultValue: Int64
  public var allowed: Allowed?

  public init(defaultValue: Int64 = 0, allowed: Allowed? = nil) {
    self.defaultValue = defaultValue
    self.allowed = allowed
  }

  init() { self.init(defaultValue: 0) }

  func encode(to writer: inout ProtobufWriter) {
    writer.int(1, defaultValue)
    switch allowed {
    case .range(let range): writer.message(10, RangeMessage(minValue: range.lowerBound, maxValue: range.upperBound))
    case .set(let values): writer.message(11, SetMessage(values: values))
    case nil: break
    }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: defaultValue = try reader.int64(wire)
    case 10:
      let range = try reader.message(wire, as: RangeMessage.self)
      guard range.minValue <= range.maxValue else {
        throw ModelFileError("an Int64Range's minimum \(range.minValue) exceeds its maximum \(range.maxValue)")
      }
      allowed = .range(range.minValue...range.maxValue)
    case 11: allowed = .set(try reader.message(wire, as: SetMessage.self).values)
    default: return false
    }
    return true
  }

  /// `Int64Range`: minValue = 1, maxValue = 2.
  struct RangeMessage: ProtobufMessage {
    var minValue: Int64 = 0
    var maxValue: Int64 = 0

    func encode(to writer: inout ProtobufWriter) {
      writer.int(1, minValue)
      writer.int(2, maxValue)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: minValue = try reader.int64(wire)
      case 2: maxValue = try reader.int64(wire)
      default: return false
      }
      return true
    }
  }

  /// `Int64Set`: values = 1, packed.
  struct SetMessage: ProtobufMessage {
    var values: [Int64] = []

    func encode(to writer: inout ProtobufWriter) { writer.packedInts(1, values) }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 1 else { return false }
      try reader.appendInts(wire, to: &values)
      return true
    }
  }
}
