/// A tensor's elements, row-major: a constant in a graph, or a value the
/// evaluator computes.
public enum TensorValues: Sendable, Equatable {
  case float32([Float])
  case int32([Int32])
  case int64([Int64])
  case bool([Bool])
  case string([String])

  public var type: ElementType {
    switch self {
    case .float32: .float32
    case .int32: .int32
    case .int64: .int64
    case .bool: .bool
    case .string: .string
    }
  }

  public var count: Int {
    switch self {
    case .float32(let v): v.count
    case .int32(let v): v.count
    case .int64(let v): v.count
    case .bool(let v): v.count
    case .string(let v): v.count
    }
  }

  /// Integer elements as Int (int32, int64 and bool); nil for other types.
  var integers: [Int]? {
    switch self {
    case .int32(let v): v.map(Int.init)
    case .int64(let v): v.map(Int.init)
    case .bool(let v): v.map { $0 ? 1 : 0 }
    default: nil
    }
  }

  /// Bytes this constant takes in a file, strings as their UTF-8 plus a 4-byte length each.
  var storedBytes: Int {
    if case .string(let v) = self { return v.reduce(0) { $0 + $1.utf8.count + 4 } }
    return count * type.width
  }
}
