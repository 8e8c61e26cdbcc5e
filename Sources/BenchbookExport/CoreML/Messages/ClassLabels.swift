/// A classifier's labels: `oneof ClassLabels` in every Core ML classifier,
/// `stringClassLabels = 100` (a `StringVector`) or `int64ClassLabels = 101`
/// (an `Int64Vector`).
public enum ClassLabels: Sendable, Equatable {
  case strings([String])
  case int64s([Int64])

  public var count: Int {
    switch self {
    case .strings(let labels): labels.count
    case .int64s(let labels): labels.count
    }
  }

  public var isInt64: Bool {
    if case .int64s = self { return true }
    return false
  }

  /// Each label as text (`"0"`, `"setosa"`), in order.
  public var texts: [String] {
    switch self {
    case .strings(let labels): labels
    case .int64s(let labels): labels.map(String.init)
    }
  }

  func encode(to writer: inout ProtobufWriter) {
    switch self {
    case .strings(let labels): writer.message(100, StringVector(vector: labels))
    case .int64s(let labels): writer.message(101, Int64Vector(vector: labels))
    }
  }

  /// Reads field 100 or 101 into `labels`; false for any other field.
  static func decode(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader, into labels: inout ClassLabels?)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 100: labels = .strings(try reader.message(wire, as: StringVector.self).vector)
    case 101: labels = .int64s(try reader.message(wire, as: Int64Vector.self).vector)
    default: return false
    }
    return true
  }
}
