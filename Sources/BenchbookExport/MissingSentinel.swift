/// What an app passes for a missing value of an input that an exported file imputes, one place for every format
/// that takes raw values (Core ML, ONNX; TensorFlow Lite takes NaN for a number and a category index alike).
public enum MissingSentinel {
  /// A missing text category: the empty string, never a category (a CSV cell that is empty is missing).
  public static let text = ""

  /// A missing integer category: `Int64.min`. Any int64 could be a category, so this is the one least likely to
  /// be: a file whose imputed feature has it as a category is refused (`checkIntegerCategories`).
  public static let integer = Int64.min

  /// A missing category's sentinel as a description writes it: `""`, or `-9223372036854775808`.
  static func written(for type: LabelType) -> String {
    switch type {
    case .string: "\"\""
    case .int64: String(integer)
    }
  }

  /// Refuses an imputed integer-category feature one of whose categories is the sentinel itself.
  static func checkIntegerCategories(_ categories: [String], feature: String) throws(ExportError) {
    if let refusal = refusal(categories, feature: feature) { throw refusal }
  }

  /// Why `checkIntegerCategories` refuses `categories`, or `nil`.
  public static func refusal(_ categories: [String], feature: String) -> ExportError? {
    guard categories.contains(where: { LabelType.int64(from: $0) == integer }) else { return nil }
    return ExportError(
      "feature '\(feature)' is imputed and has \(integer) as a category, the value an app passes for a missing "
        + "integer category; declare the categories as text")
  }
}
