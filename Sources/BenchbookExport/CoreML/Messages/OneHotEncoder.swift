/// Core ML's `OneHotEncoder`: one string or int64 input becomes an array with
/// a 1 at its category's position and 0 elsewhere.
public struct OneHotEncoder: Sendable, Equatable, ProtobufMessage {
  public enum HandleUnknown: Int, Sendable {
    /// Prediction fails on a category the encoder does not know.
    case errorOnUnknown = 0
    /// An unknown category encodes as all zeros.
    case ignoreUnknown = 1
  }

  /// The categories in output order (`stringCategories = 1` or `int64Categories = 2`).
  public var categories: ClassLabels
  public var outputSparse: Bool
  public var handleUnknown: HandleUnknown

  public init(categories: ClassLabels, outputSparse: Bool = false, handleUnknown: HandleUnknown = .errorOnUnknown) {
    self.categories = categories
    self.outputSparse = outputSparse
    self.handleUnknown = handleUnknown
  }

  init() { self.init(categories: .strings([])) }

  func encode(to writer: inout ProtobufWriter) {
    switch categories {
    case .strings(let values): writer.message(1, StringVector(vector: values))
    case .int64s(let values): writer.message(2, Int64Vector(vector: values))
    }
    writer.bool(10, outputSparse)
    writer.int(11, handleUnknown.rawValue)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: categories = .strings(try reader.message(wire, as: StringVector.self).vector)
    case 2: categories = .int64s(try reader.message(wire, as: Int64Vector.self).vector)
    case 10: outputSparse = try reader.bool(wire)
    case 11: handleUnknown = try reader.enumeration(wire, "handleUnknown value")
    default: return false
    }
    return true
  }
}
