/// A data file's contents (gunzipped when the stored bytes start with the gzip magic bytes), read a
/// chunk at a time, with the SHA-256 of the stored bytes computed on the way. Memory stays at a block of
/// stored bytes, zlib's window and a few chunks read ahead, however large the file.
///
/// Reading, hashing and inflating run on a thread of their own (`ReadAhead`), ahead of the caller's parsing.
final class ContentStream {
  /// The stored bytes and their inflater, which only the reading thread touches until it is stopped.
  private final class Reader: @unchecked Sendable {
    let source: StoredSource
    let inflater: GzipInflater?

    init(source: StoredSource, inflater: GzipInflater?) {
      self.source = source
      self.inflater = inflater
    }

    func read(into out: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
      if let inflater { return try inflater.read(into: out) }
      var count = 0
      while count < out.count {
        if source.available.isEmpty {
          guard try source.refill() else { break }
        }
        let take = min(source.available.count, out.count - count)
        (out.baseAddress! + count).update(from: source.available.baseAddress!, count: take)
        source.consume(take)
        count += take
      }
      return count
    }
  }

  private let reader: Reader
  private let ahead: ReadAhead
  /// Whether the contents are gzip data.
  let isCompressed: Bool
  /// A guess at the contents' size, for reserving room: the stored size, times four when compressed.
  let estimatedSize: Int

  /// Opens the file and decides, from its first bytes, how to read it; the same rules as
  /// `DataFile.contents(of:path:reportingAt:)`.
  /// - Parameter location: Where errors about the file as a whole point (the spec entry that named it).
  /// - Parameter blockSize: Stored bytes read at a time.
  init(path: String, reportingAt location: SourceLocation?, blockSize: Int = StoredSource.defaultBlockSize)
    throws(DataError)
  {
    let source = try StoredSource(path: path, reportingAt: location, blockSize: blockSize)
    try source.fill(atLeast: 2)
    let start = source.available.prefix(2)
    let inflater: GzipInflater?
    if start.count == 2 && start[0] == 0x1f && start[1] == 0x8b {
      inflater = try GzipInflater(source: source, path: DataFile.displayPath(path))
    } else if let error = DataFile.misnamedGzip(startingWith: Array(start), path: path, reportingAt: location) {
      throw error
    } else {
      inflater = nil
    }
    isCompressed = inflater != nil
    estimatedSize = source.sizeHint * (inflater != nil ? 4 : 1)
    let reader = Reader(source: source, inflater: inflater)
    self.reader = reader
    ahead = ReadAhead { buffer throws(DataError) in try reader.read(into: buffer) }
  }

  /// Fills `out` with contents; fewer bytes only at the end, 0 once everything is read.
  func read(into out: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    try ahead.read(into: out)
  }

  /// SHA-256 of the stored bytes as lowercase hex. Reads whatever remains (a compressed file's
  /// trailer has been read by the time its contents end).
  func sha256() throws(DataError) -> String {
    ahead.stop()
    let source = reader.source
    while !source.isAtEnd {
      source.consume(source.available.count)
      try source.refill()
    }
    return source.finishHash()
  }
}
