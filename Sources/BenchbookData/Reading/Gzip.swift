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

    let inflater = try GzipInflater(source: StoredSource(bytes: bytes), path: path)
    // The gzip trailer holds the last member's size mod 2^32: usually the
    // exact output size, so one allocation suffices. It is only a claim, so it
    // is believed up to what deflate can produce from these bytes: a forged
    // trailer on a file of a few bytes must not reserve gigabytes.
    var capacity = max(bytes.count * 4, 1 << 16)
    if bytes.count >= 18 {
      let n = bytes.count
      let size = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
      if size >= bytes.count / 2 { capacity = min(size, bytes.count * maximumExpansion) }
    }

    var whole = [UInt8]()
    whole.reserveCapacity(capacity)
    let block = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
    defer { block.deallocate() }
    while true {
      let got = try inflater.read(into: block)
      if got == 0 { break }
      whole.append(contentsOf: block[..<got])
    }
    return whole
  }
}
