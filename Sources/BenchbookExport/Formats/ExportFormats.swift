/// Every format Benchbook writes, in the order help texts and reports list them.
public enum ExportFormats {
  public static let all: [any ExportFormat] = [CoreMLFormat(), TFLiteFormat(), ONNXFormat()]

  /// The format with this id, if any.
  public static func named(_ id: String) -> (any ExportFormat)? {
    all.first { $0.id == id }
  }

  /// Every format's id, for messages.
  public static var ids: [String] { all.map(\.id) }

  /// The format a file is in: the one its extension names, else the first that recognises its contents.
  public static func of(fileName: String, bytes: [UInt8]) -> (any ExportFormat)? {
    if let byName = all.first(where: { fileName.lowercased().hasSuffix("." + $0.fileExtension) }) { return byName }
    return all.first { $0.recognises(bytes) }
  }
}
