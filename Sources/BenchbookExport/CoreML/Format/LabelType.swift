/// Whether labels (classes or categories) travel as int64 or as strings.
///
/// Core ML types a class label or a categorical input as int64 or string. Text
/// that is exactly an integer's decimal form (`0`, `-3`, not `03` or `1.0`) is
/// sent as int64, so `when:` targets give the `Int64` labels Xcode shows;
/// anything else stays a string and must be passed exactly as written.
public enum LabelType: Sendable, Equatable {
  case int64
  case string

  /// int64 when every label is canonical integer text, else string.
  public init(labels: [String]) {
    self = labels.allSatisfy { Self.int64(from: $0) != nil } ? .int64 : .string
  }

  /// The integer `text` spells canonically, if it does.
  public static func int64(from text: String) -> Int64? {
    guard let value = Int64(text), String(value) == text else { return nil }
    return value
  }

  /// The labels in this type's representation.
  public func classLabels(_ labels: [String]) -> ClassLabels {
    switch self {
    case .int64: .int64s(labels.map { Self.int64(from: $0) ?? 0 })
    case .string: .strings(labels)
    }
  }

  /// The label of each of `indices` into `classes`, in this type's representation: each class converted once,
  /// not once per row (a k-nearest-neighbours model labels every stored row).
  public func classLabels(indices: [Int], of classes: [String]) -> ClassLabels {
    switch classLabels(classes) {
    case .int64s(let values): .int64s(indices.map { values[$0] })
    case .strings(let values): .strings(indices.map { values[$0] })
    }
  }

  public var featureType: CoreMLFeatureType { CoreMLFeatureType(self == .int64 ? .int64 : .string) }

  public var dictionaryType: CoreMLFeatureType {
    CoreMLFeatureType(.dictionary(keys: self == .int64 ? .int64 : .string))
  }
}
