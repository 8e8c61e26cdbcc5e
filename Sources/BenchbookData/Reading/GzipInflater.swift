import CZlib

/// Inflates gzip data from a `StoredSource` into the caller's buffer, a piece at a time, so a file's
/// contents never have to be held whole.
///
/// Every member of a multi-member file is read (`cat a.gz b.gz` means the concatenated contents). Zero
/// padding after the last member is ignored, as `gzip -d` does; other trailing bytes are an error.
final class GzipInflater {
  private let source: StoredSource
  private let place: SourceLocation
  /// zlib keeps a pointer back to its stream, so the stream must not move.
  private let stream: UnsafeMutablePointer<z_stream>
  private var finished = false

  /// - Parameter path: Names the file in errors.
  init(source: StoredSource, path: String) throws(DataError) {
    self.source = source
    place = SourceLocation(file: path)
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let windowBits: Int32 = 15 + 16
    guard inflateInit2_(stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      stream.deallocate()
      throw DataError(.corruptGzip, at: place, "cannot gunzip: zlib could not start")
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deallocate()
  }

  private func corrupt(_ what: String) -> DataError { DataError(.corruptGzip, at: place, "cannot gunzip: \(what)") }

  /// Fills `out` with contents; fewer bytes only at the end of the data, 0 once it is all read.
  func read(into out: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    var count = 0
    while count < out.count && !finished {
      if source.available.isEmpty { try source.refill() }
      let input = source.available
      let inputCount = min(input.count, Int(UInt32.max))
      let room = min(out.count - count, Int(UInt32.max))
      stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.pointee.avail_in = UInt32(inputCount)
      stream.pointee.next_out = out.baseAddress! + count
      stream.pointee.avail_out = UInt32(room)
      let status = inflate(stream, Z_NO_FLUSH)
      source.consume(inputCount - Int(stream.pointee.avail_in))
      count += room - Int(stream.pointee.avail_out)
      if status == Z_STREAM_END {
        try endOfMember()
      } else if status == Z_BUF_ERROR && source.available.isEmpty && source.isAtEnd {
        throw corrupt("the file ends in the middle of the compressed data (truncated?)")
      } else if status != Z_OK && status != Z_BUF_ERROR {
        let detail = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
        throw corrupt(detail)
      }
    }
    return count
  }

  /// After a member: another member may follow; zero padding to the end is skipped; anything else is an error.
  private func endOfMember() throws(DataError) {
    try source.fill(atLeast: 2)
    let next = source.offset
    let input = source.available
    if input.isEmpty {
      finished = true
      return
    }
    if input[0] == 0 {
      // Only zeros may follow, to the end of the file.
      while true {
        guard source.available.allSatisfy({ $0 == 0 }) else { break }
        source.consume(source.available.count)
        guard try source.refill() else {
          finished = true
          return
        }
      }
      throw corrupt("unexpected bytes after the gzip data at offset \(next)")
    }
    guard input.count >= 2, input[0] == 0x1f, input[1] == 0x8b else {
      throw corrupt("unexpected bytes after the gzip data at offset \(next)")
    }
    inflateReset(stream)
  }
}
