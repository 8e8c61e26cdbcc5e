#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads data files whole: the bytes as stored (what provenance hashes) and
/// their contents (gunzipped when the bytes are gzip).
public enum DataFile {
  /// The file's bytes exactly as stored on disk.
  ///
  /// - Parameters:
  ///   - path: The file to read.
  ///   - location: Where errors should point; defaults to the file itself.
  ///     The loader passes the spec entry that named the file.
  public static func storedBytes(atPath path: String, reportingAt location: SourceLocation? = nil) throws(DataError)
    -> [UInt8]
  {
    do {
      return try RegularFile.read(path, atMost: Limits.dataFileBytes, what: "a data file (the machine's memory)")
    } catch {
      throw unreadable(error, path: path, reportingAt: location)
    }
  }

  /// The located error for a data file that cannot be opened or read.
  static func unreadable(_ failure: RegularFile.Failure, path: String, reportingAt location: SourceLocation?)
    -> DataError
  {
    let message =
      switch failure.kind {
      case .missing: "cannot open data file '\(displayPath(path))': \(String(cString: strerror(ENOENT)))"
      case .notRegular: "data file '\(displayPath(path))' \(failure.reason)"
      case .unreadable, .tooLarge: "data file '\(displayPath(path))': \(failure.reason)"
      }
    return DataError(.unreadableFile, at: location ?? SourceLocation(file: displayPath(path)), message)
  }

  /// The file's contents: gunzipped when it starts with the gzip magic bytes,
  /// otherwise as stored.
  public static func contents(atPath path: String) throws(DataError) -> [UInt8] {
    try contents(of: storedBytes(atPath: path), path: path)
  }

  /// Stored bytes as text: gunzipped when they start with the gzip magic bytes 1f 8b, whatever the
  /// file's name (a gzip file named `.csv` is read); a name ending `.gz` must start so, or it is an error
  /// at `location` (default: the file's first byte), never read as plain text.
  public static func contents(of stored: [UInt8], path: String, reportingAt location: SourceLocation? = nil)
    throws(DataError) -> [UInt8]
  {
    if Gzip.isCompressed(stored) { return try Gzip.decompress(stored, path: displayPath(path)) }
    if let error = misnamedGzip(startingWith: Array(stored.prefix(2)), path: path, reportingAt: location) {
      throw error
    }
    return stored
  }

  /// The error for a file named `.gz` whose first bytes are not the gzip magic; `nil` when the name does not
  /// promise gzip.
  static func misnamedGzip(startingWith start: [UInt8], path: String, reportingAt location: SourceLocation?)
    -> DataError?
  {
    guard path.lowercased().hasSuffix(".gz") else { return nil }
    let shown = start.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    return DataError(
      .corruptGzip, at: location ?? SourceLocation(file: displayPath(path), line: 1, column: 1),
      "data file '\(displayPath(path))' is named .gz but is not gzip data: it starts with "
        + (start.isEmpty ? "nothing" : shown) + ", not the gzip magic bytes 1f 8b")
  }

  /// The path as errors show it: relative to the working directory when the
  /// file lies inside it (the way users typed it), otherwise unchanged.
  public static func displayPath(_ path: String) -> String {
    guard path.hasPrefix("/"), let directory = workingDirectory() else { return path }
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    guard path.hasPrefix(prefix) else { return path }
    return String(path.dropFirst(prefix.count))
  }

  private static func workingDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The last path component, how messages name a data file in passing.
  static func fileName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
