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
    let place = location ?? SourceLocation(file: displayPath(path))
    func failure(_ what: String) -> DataError {
      let reason = String(cString: strerror(errno))
      return DataError(.unreadableFile, at: place, "cannot \(what) data file '\(displayPath(path))': \(reason)")
    }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw failure("open") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw failure("inspect") }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw DataError(.unreadableFile, at: place, "data file '\(displayPath(path))' is not a regular file")
    }
    let size = Int(status.st_size)
    var readError: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      count = 0
      while count < size {
        let got = read(descriptor, buffer.baseAddress! + count, size - count)
        if got < 0 {
          if errno == EINTR { continue }
          readError = errno
          return
        }
        if got == 0 { break }  // The file shrank under us; keep what is there.
        count += got
      }
    }
    if readError != 0 {
      errno = readError
      throw failure("read")
    }
    return bytes
  }

  /// The file's contents: gunzipped when it starts with the gzip magic bytes,
  /// otherwise as stored.
  public static func contents(atPath path: String) throws(DataError) -> [UInt8] {
    let stored = try storedBytes(atPath: path)
    return Gzip.isCompressed(stored) ? try Gzip.decompress(stored, path: displayPath(path)) : stored
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
