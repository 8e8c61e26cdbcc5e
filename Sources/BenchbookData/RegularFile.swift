#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads user-named files only when they are regular files. A FIFO with no
/// writer would block a plain `open` forever, and a device or directory has no
/// meaningful contents, so the kind is checked first and the file is opened
/// without blocking.
public enum RegularFile {
  /// Why a path could not be read, as a phrase that follows the path.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
      case missing
      case notRegular
      case unreadable
      /// Larger than the caller's limit (`Limits`); nothing was read.
      case tooLarge
    }

    public var kind: Kind
    public var reason: String
    public var description: String { reason }
  }

  /// What the path names when it is not a regular file (`lstat` for `following: false`), e.g.
  /// "a directory"; nil for a regular file or nothing at all.
  public static func otherKind(atPath path: String, followingLinks following: Bool = true) -> String? {
    var status = stat()
    let result = following ? stat(path, &status) : lstat(path, &status)
    guard result == 0 else { return nil }
    return kindName(status.st_mode)
  }

  /// The whole file. Throws for a missing path, anything but a regular file, I/O errors, and a file of more than
  /// `limit` bytes, checked by its size before anything is read (a sparse file can claim terabytes).
  /// - Parameter what: the kind of file, for the message ("a spec").
  public static func read(_ path: String, atMost limit: Int, what: String) throws(Failure) -> [UInt8] {
    let (descriptor, size) = try openForReading(path)
    defer { close(descriptor) }
    let tooLarge = Failure(
      kind: .tooLarge,
      reason: "is too large: more than \(limit) bytes, the most \(what) may have (see docs/commands.md, Limits)")
    guard size <= limit else { throw tooLarge }
    var readError: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      count = 0
      while count < size {
        let got = readBytes(descriptor, buffer.baseAddress! + count, size - count)
        if got < 0 {
          if errno == EINTR { continue }
          readError = errno
          return
        }
        if got == 0 { break }  // The file shrank under us; keep what is there.
        count += got
      }
    }
    // The file may have grown since `fstat`; read to its end.
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while readError == 0 {
      let got = chunk.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress!, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        readError = errno
      } else if got == 0 {
        break
      } else {
        bytes += chunk[0..<got]
        if bytes.count > limit { throw tooLarge }
      }
    }
    if readError != 0 { throw Failure(kind: .unreadable, reason: "cannot read: \(reason(readError))") }
    return bytes
  }

  /// An open descriptor on a regular file, and its size when opened; the caller closes it.
  static func openForReading(_ path: String) throws(Failure) -> (descriptor: Int32, size: Int) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      let code = errno
      throw Failure(kind: code == ENOENT ? .missing : .unreadable, reason: reason(code))
    }
    if let other = kindName(status.st_mode) { throw notRegular(other) }
    // O_NONBLOCK: if the path was swapped for a FIFO since `stat`, opening still returns at once.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK)
    guard descriptor >= 0 else { throw Failure(kind: .unreadable, reason: "cannot open: \(reason(errno))") }
    guard fstat(descriptor, &status) == 0 else {
      let failure = Failure(kind: .unreadable, reason: "cannot inspect: \(reason(errno))")
      close(descriptor)
      throw failure
    }
    if let other = kindName(status.st_mode) {
      close(descriptor)
      throw notRegular(other)
    }
    return (descriptor, Int(status.st_size))
  }

  /// Reads up to `count` bytes at the descriptor's position, retrying on interruption; 0 at the end.
  static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
    while true {
      let got = readBytes(descriptor, buffer, count)
      if got >= 0 { return got }
      if errno == EINTR { continue }
      throw Failure(kind: .unreadable, reason: "cannot read: \(reason(errno))")
    }
  }

  private static func notRegular(_ kind: String) -> Failure {
    Failure(kind: .notRegular, reason: "is \(kind), not a regular file")
  }

  private static func reason(_ code: Int32) -> String {
    code == ENOENT ? "no such file" : String(cString: strerror(code))
  }

  private static func kindName(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "a special file"
    }
  }
}

/// `read(2)`, named apart from `RegularFile.read`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
