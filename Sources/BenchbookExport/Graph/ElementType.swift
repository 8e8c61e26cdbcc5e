/// What a graph tensor's elements are. Every format Benchbook writes besides
/// Core ML computes in float32; indices are int32 (TensorFlow Lite) or int64
/// (ONNX); categories arrive as int64 or strings (ONNX).
public enum ElementType: String, Sendable, Equatable, CaseIterable {
  case float32
  case int32
  case int64
  case bool
  case string

  /// Bytes per element in a file (a string's length varies: 0).
  var width: Int {
    switch self {
    case .float32, .int32: 4
    case .int64: 8
    case .bool: 1
    case .string: 0
    }
  }
}
