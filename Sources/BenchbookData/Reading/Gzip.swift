import CZlib

/// gzip decompression through zlib's `inflate`, which parses gzip headers
/// itself (window bits 15 + 16).
public enum Gzip {
  /// Whether `bytes` start with the gzip magic bytes 1f 8b.
  public static func isCompressed(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// The most output deflate can produce per input byte (a 258-byte match
  /// coded in 2 bits), so the most any gzip file of n bytes can hold.
  static let maximumExpansion = 1_032

  /// Decompresses every member of a gzip file (`cat a.gz b.gz` is valid gzip
  /// and means the concatenated contents). Zero padding after the last
  /// member is ignored, as `gzip -d` does; other trailing bytes are an error.
  ///
  /// - Parameter path: Names the file in errors.
  public static func decompress(_ bytes: [UInt8], path: String) throws(DataError) -> [UInt8] {
    let place = SourceLocation(file: path)
    func corrupt(_ what: String) -> DataError { DataError(.corruptGzip, at: place, "cannot gunzip: \(what)") }
    guard isCompressed(bytes) else { throw corrupt("not gzip data") }

    var chunks: [[UInt8]] = []
    var produced = 0
    var stream = z_stream()
    let windowBits: Int32 = 15 + 16
    guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw corrupt("zlib could not start")
    }
    defer { inflateEnd(&stream) }

    // The gzip trailer holds the last member's size mod 2^32: usually the
    // exact output size, so one allocation suffices. It is only a claim, so it
    // is believed up to what deflate can produce from these bytes: a forged
    // trailer on a file of a few bytes must not reserve gigabytes.
    var capacity = max(bytes.count * 4, 1 << 16)
    if bytes.count >= 18 {
      let n = bytes.count
      let size = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
      // +1 lets inflate report the end without a new chunk.
      if size >= bytes.count / 2 { capacity = min(size, bytes.count * maximumExpansion) + 1 }
    }

    var failure: DataError?
    bytes.withUnsafeBufferPointer { input in
      var consumed = 0
      var finished = false
      func feed() {
        if stream.avail_in == 0 && consumed < input.count {
          let take = min(input.count - consumed, Int(UInt32.max))
          stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + consumed)
          stream.avail_in = UInt32(take)
          consumed += take
        }
      }
      while !finished && failure == nil {
        let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
          count = 0
          while count < out.count {
            feed()
            let room = min(out.count - count, Int(UInt32.max))
            stream.next_out = out.baseAddress! + count
            stream.avail_out = UInt32(room)
            let status = inflate(&stream, Z_NO_FLUSH)
            count += room - Int(stream.avail_out)
            if status == Z_STREAM_END {
              // Another member may follow; skip zero padding, reject anything else.
              let left = Int(stream.avail_in) + (input.count - consumed)
              if left == 0 {
                finished = true
                return
              }
              let next = input.count - left
              if input[next...].allSatisfy({ $0 == 0 }) {
                finished = true
                return
              }
              guard left >= 2, input[next] == 0x1f, input[next + 1] == 0x8b else {
                failure = corrupt("unexpected bytes after the gzip data at offset \(next)")
                return
              }
              inflateReset(&stream)
            } else if status == Z_BUF_ERROR && stream.avail_in == 0 && consumed == input.count {
              failure = corrupt("the file ends in the middle of the compressed data (truncated?)")
              return
            } else if status != Z_OK && status != Z_BUF_ERROR {
              let detail = stream.msg.map { String(cString: $0) } ?? "error \(status)"
              failure = corrupt(detail)
              return
            }
          }
        }
        produced += chunk.count
        chunks.append(chunk)
        capacity = max(produced, 1 << 16)
      }
    }
    if let failure { throw failure }
    if chunks.count == 1 { return chunks[0] }
    var whole = [UInt8]()
    whole.reserveCapacity(produced)
    for chunk in chunks { whole.append(contentsOf: chunk) }
    return whole
  }
}
