#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file holding one fuzz input, so that targets whose CLI entry point takes a path (specs, data, results)
/// are fuzzed through that same entry point, file checks and all.
///
/// The file is removed after every input, so a normal run leaves nothing behind; only the input of a crash
/// remains (libFuzzer also saves it as its artifact).
public struct ScratchFile: Sendable {
  public let path: String

  /// A path in `$TMPDIR` (or `/tmp`) unique to this process, ending in `name`.
  public init(named name: String) {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    path = "\(directory)/benchbook-fuzz-\(getpid())-\(name)"
  }

  /// Writes `bytes` as the whole file, runs `body` with its path, then removes the file.
  public func with<Result, Failure: Error>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (String) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    store(bytes)
    defer { unlink(path) }
    return try body(path)
  }

  /// Writes the file whole; a failure here is the machine's, not Benchbook's, so it stops the run.
  public func store(_ bytes: UnsafeBufferPointer<UInt8>) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot create the scratch file \(path): errno \(errno)") }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
      if result < 0 && errno == EINTR { continue }
      guard result > 0 else { fatalError("cannot write the scratch file \(path): errno \(errno)") }
      written += result
    }
  }
}
