#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A data file's bytes as stored, a block at a time, hashed as they are read, so provenance
/// fingerprints the file without ever holding it whole.
///
/// Unconsumed bytes stay in `available` until `consume` is called; `refill` keeps them and adds the
/// next block after them.
final class StoredSource {
  private enum Origin {
    case file(descriptor: Int32, path: String, location: SourceLocation?)
    case memory([UInt8], next: Int)
  }

  static let defaultBlockSize = 1 << 20

  private var origin: Origin
  /// Bytes asked of the origin at a time.
  private let blockSize: Int
  private var buffer: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var start = 0
  private var end = 0
  /// Bytes read from the origin before `buffer[0]`.
  private var bufferOffset = 0
  private var hasher = SHA256()
  /// The origin has no more bytes.
  private(set) var isAtEnd = false
  /// The file's size when opened (the array's size in memory).
  let sizeHint: Int

  /// Opens a data file; errors point at `location`, or the file itself.
  init(path: String, reportingAt location: SourceLocation?, blockSize: Int = defaultBlockSize) throws(DataError) {
    let opened: (descriptor: Int32, size: Int)
    do {
      opened = try RegularFile.openForReading(path)
    } catch {
      throw DataFile.unreadable(error, path: path, reportingAt: location)
    }
    origin = .file(descriptor: opened.descriptor, path: path, location: location)
    sizeHint = opened.size
    self.blockSize = max(blockSize, 1)
    capacity = self.blockSize
    buffer = .allocate(capacity: capacity)
  }

  /// Reads bytes already in memory, in blocks like a file.
  init(bytes: [UInt8]) {
    origin = .memory(bytes, next: 0)
    sizeHint = bytes.count
    blockSize = Self.defaultBlockSize
    capacity = blockSize
    buffer = .allocate(capacity: capacity)
  }

  deinit {
    if case .file(let descriptor, _, _) = origin { close(descriptor) }
    buffer.deallocate()
  }

  /// Bytes read but not yet consumed.
  var available: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer + start, count: end - start) }

  /// Offset in the file of `available`'s first byte.
  var offset: Int { bufferOffset + start }

  func consume(_ count: Int) {
    precondition(count <= end - start)
    start += count
  }

  /// Reads the next block after the unconsumed bytes; `false` when the origin had no more.
  @discardableResult
  func refill() throws(DataError) -> Bool {
    guard !isAtEnd else { return false }
    if start > 0 {
      let kept = end - start
      if kept > 0 { buffer.update(from: buffer + start, count: kept) }
      bufferOffset += start
      start = 0
      end = kept
    }
    if capacity - end < blockSize {
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: end + blockSize)
      grown.initialize(from: buffer, count: end)
      buffer.deallocate()
      buffer = grown
      capacity = end + blockSize
    }
    let got = try readBlock(into: buffer + end, count: blockSize)
    if got == 0 {
      isAtEnd = true
      return false
    }
    hasher.update(UnsafeRawBufferPointer(start: buffer + end, count: got))
    end += got
    return true
  }

  /// Refills until at least `count` bytes are available or the origin ends.
  func fill(atLeast count: Int) throws(DataError) {
    while end - start < count, try refill() {}
  }

  /// SHA-256 of every byte read, as lowercase hex; the source must be at its end.
  func finishHash() -> String {
    precondition(isAtEnd, "the hash covers the whole file")
    return SHA256.hex(hasher.finalize())
  }

  private func readBlock(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(DataError) -> Int {
    switch origin {
    case .file(let descriptor, let path, let location):
      do {
        return try RegularFile.readSome(descriptor, into: destination, count: count)
      } catch {
        throw DataFile.unreadable(error, path: path, reportingAt: location)
      }
    case .memory(let bytes, let next):
      let got = min(count, bytes.count - next)
      bytes.withUnsafeBufferPointer { source in
        if got > 0 { destination.update(from: source.baseAddress! + next, count: got) }
      }
      origin = .memory(bytes, next: next + got)
      return got
    }
  }
}
