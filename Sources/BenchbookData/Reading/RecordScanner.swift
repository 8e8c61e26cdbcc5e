/// Finds the field boundaries of one CSV record at a time (RFC 4180: commas,
/// `"`-quoted fields holding commas, `""` and line breaks; LF or CRLF), or of
/// another delimiter's (`CSVDialect.delimiter`: `;`, tabs, …) by the same rules.
///
/// It only records where fields start and end, so callers copy just the
/// columns they want; the spans point into the input and stay valid as long
/// as the input does.
///
/// A streaming caller scans one chunk at a time with `isFinal` false: a
/// record that might continue past the chunk is then left unread and
/// `needsMore` is set, so the caller can add the next chunk and rebase.
struct RecordScanner: ~Copyable {
  static let comma = UInt8(ascii: ",")
  static let quote = UInt8(ascii: "\"")
  static let lineFeed = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")

  private(set) var input: UnsafeBufferPointer<UInt8>
  let path: String
  /// Whether `input` ends where the data ends; otherwise a record that reaches its end is incomplete.
  private(set) var isFinal = true
  /// The last `next()` stopped at a record that may continue beyond `input`.
  private(set) var needsMore = false
  /// Byte offset of the next record.
  private(set) var position: Int
  /// Physical line (1-based) at `position`.
  private(set) var line: Int
  /// Line where the record last read starts.
  private(set) var recordLine = 0
  /// Byte offset where the record last read starts.
  private(set) var recordStart = 0
  /// Fields in the record last read; only the first `capacity` have spans.
  private(set) var fieldCount = 0
  /// Whether the record last read was an empty line.
  private(set) var wasBlank = false
  let capacity: Int
  /// The byte between fields.
  let delimiter: UInt8
  /// Every byte below this is looked at one by one in unquoted text (line breaks and, when it is low, the
  /// delimiter); eight bytes at a time are skipped when none is.
  private let belowMask: UInt64
  /// The delimiter in every byte, when it is not below `belowMask` and must be found by equality.
  private let delimiterMask: UInt64?
  /// Span of each field, quotes excluded.
  let starts: UnsafeMutableBufferPointer<Int>
  let ends: UnsafeMutableBufferPointer<Int>
  /// Whether the field holds doubled quotes (`""`) that must be unescaped.
  let escaped: UnsafeMutableBufferPointer<Bool>

  init(
    input: UnsafeBufferPointer<UInt8>, path: String, position: Int, line: Int, capacity: Int,
    delimiter: UInt8 = RecordScanner.comma
  ) {
    self.input = input
    self.path = path
    self.position = position
    self.line = line
    self.capacity = max(capacity, 1)
    self.delimiter = delimiter
    // A comma (or a tab, a space…) lies below '-': one comparison finds it with the line breaks, as for
    // CSV. A higher delimiter (';', '|') is found by a second test for equal bytes.
    let ones: UInt64 = 0x0101_0101_0101_0101
    if delimiter <= Self.comma {
      belowMask = ones &* UInt64(max(delimiter, Self.carriageReturn) + 1)
      delimiterMask = nil
    } else {
      belowMask = ones &* UInt64(Self.carriageReturn + 1)
      delimiterMask = ones &* UInt64(delimiter)
    }
    starts = .allocate(capacity: self.capacity)
    ends = .allocate(capacity: self.capacity)
    escaped = .allocate(capacity: self.capacity)
  }

  deinit {
    starts.deallocate()
    ends.deallocate()
    escaped.deallocate()
  }

  /// Scans a new chunk holding the unread rest of the previous one from `position` on.
  mutating func rebase(_ input: UnsafeBufferPointer<UInt8>, position: Int, isFinal: Bool) {
    self.input = input
    self.position = position
    self.isFinal = isFinal
    needsMore = false
  }

  /// Reads the next record's field spans.
  /// - Returns: `false` at the end of the data (trailing empty lines are not
  ///   records), or, when not final, at a record the chunk may not hold whole.
  mutating func next() throws(DataError) -> Bool {
    needsMore = false
    let n = input.count
    var p = position
    let delimiter = self.delimiter
    let belowMask = self.belowMask
    let delimiterMask = self.delimiterMask
    guard p < n, let base = input.baseAddress else {
      needsMore = !isFinal
      return false
    }
    let first = base[p]
    wasBlank = first == Self.lineFeed || (first == Self.carriageReturn && (p + 1 == n || base[p + 1] == Self.lineFeed))
    if wasBlank {
      var q = p
      while q < n && (base[q] == Self.lineFeed || base[q] == Self.carriageReturn) { q += 1 }
      if q == n {
        if !isFinal {
          needsMore = true
          return false
        }
        position = n
        return false
      }
    }
    let startLine = line
    var terminated = false
    recordLine = line
    recordStart = p
    fieldCount = 0
    while true {
      var start = p
      let end: Int
      var isEscaped = false
      if p < n && base[p] == Self.quote {
        let openingLine = line
        p += 1
        start = p
        while true {
          guard p < n else {
            if !isFinal {
              line = startLine
              needsMore = true
              return false
            }
            throw DataError(
              .malformedCSV, at: SourceLocation(file: path, line: openingLine),
              "quoted field is never closed (missing '\"')")
          }
          let c = base[p]
          if c == Self.quote {
            if p + 1 < n && base[p + 1] == Self.quote {
              isEscaped = true
              p += 2
              continue
            }
            break
          }
          if c == Self.lineFeed { line += 1 }
          p += 1
        }
        end = p
        p += 1
        if p < n {
          let c = base[p]
          let isEnd =
            c == delimiter || c == Self.lineFeed
            || (c == Self.carriageReturn && (p + 1 == n || base[p + 1] == Self.lineFeed))
          if !isEnd {
            let spelled = CSVDialect.spelling(c)
            let advice =
              CSVHeader.commonDelimiters.contains(c)
              ? "; if the file's delimiter is '\(spelled)', declare it with `data: {delimiter: \"\(spelled)\"}`" : ""
            throw DataError(
              .malformedCSV, at: SourceLocation(file: path, line: line),
              "unexpected '\(spelled)' after a closing quote (a quote inside a quoted field is written \"\")\(advice)")
          }
        }
      } else {
        // Eight bytes at a time, find the first byte below `belowMask`'s (for CSV 0x2D, which every
        // delimiter is at or below; bytes of 0x80 and up never match) or equal to a high delimiter;
        // only that byte is examined one by one. Two loops, so a comma file's has no second test.
        if let delimiterMask {
          while p < n {
            if p + 8 <= n {
              let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
              let equal = word ^ delimiterMask
              let found =
                ((word &- belowMask) & ~word | (equal &- 0x0101_0101_0101_0101) & ~equal) & 0x8080_8080_8080_8080
              if found == 0 {
                p += 8
                continue
              }
              p += found.trailingZeroBitCount >> 3
            }
            let c = base[p]
            if c == delimiter || c == Self.lineFeed { break }
            if c == Self.carriageReturn && (p + 1 == n || base[p + 1] == Self.lineFeed) { break }
            p += 1
          }
        } else {
          while p < n {
            if p + 8 <= n {
              let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
              let low = (word &- belowMask) & ~word & 0x8080_8080_8080_8080
              if low == 0 {
                p += 8
                continue
              }
              p += low.trailingZeroBitCount >> 3
            }
            let c = base[p]
            // The delimiter is at or below ',' here.
            if c > Self.comma {
              p += 1
              continue
            }
            if c == delimiter || c == Self.lineFeed { break }
            if c == Self.carriageReturn && (p + 1 == n || base[p + 1] == Self.lineFeed) { break }
            p += 1
          }
        }
        end = p
      }
      if fieldCount < capacity {
        starts[fieldCount] = start
        ends[fieldCount] = end
        escaped[fieldCount] = isEscaped
      }
      fieldCount += 1
      guard p < n else { break }
      if base[p] == delimiter {
        p += 1
        continue
      }
      if base[p] == Self.carriageReturn { p += 1 }
      if p < n {
        p += 1
        terminated = true
      }
      line += 1
      break
    }
    if !isFinal && !terminated {
      line = startLine
      needsMore = true
      return false
    }
    position = p
    return true
  }

  /// Runs `body` with field `index`'s bytes, `""` turned back into `"` (in
  /// `scratch`, only when the field holds one).
  @inline(__always)
  func withField<R>(_ index: Int, scratch: inout GrowableBuffer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R)
    -> R
  {
    if !escaped[index] {
      return body(UnsafeBufferPointer(rebasing: input[starts[index]..<ends[index]]))
    }
    scratch.removeAll()
    copyField(index, to: &scratch)
    return body(UnsafeBufferPointer(start: scratch.base, count: scratch.count))
  }

  /// Appends field `index` to `out`, turning `""` back into `"`.
  @inline(__always)
  func copyField(_ index: Int, to out: inout GrowableBuffer<UInt8>) {
    let start = starts[index]
    let count = ends[index] - start
    guard let base = input.baseAddress else { return }
    if !escaped[index] {
      out.append(base + start, count: count)
      return
    }
    var i = start
    while i < start + count {
      out.append(base[i])
      i += base[i] == Self.quote ? 2 : 1
    }
  }

  /// The bytes of the record last read, for messages.
  var recordText: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: input[recordStart..<max(recordStart, min(position, input.count))])
  }

  /// A located error for a record whose field count differs from the header's.
  func raggedRecord(expected: Int) -> DataError {
    let location = SourceLocation(file: path, line: recordLine)
    if wasBlank {
      return DataError(.raggedRecord, at: location, "empty line; expected \(expected) fields as in the header")
    }
    let advice =
      fieldCount < expected
      ? CSVHeader.delimiterAdvice(record: recordText, delimiter: delimiter, needed: expected - fieldCount) : ""
    return DataError(
      .raggedRecord, at: location, "expected \(expected) fields as in the header, found \(fieldCount)" + advice)
  }

  /// Field `index` as a string.
  func fieldText(_ index: Int) -> String {
    var bytes = GrowableBuffer<UInt8>(capacity: ends[index] - starts[index])
    defer { bytes.deallocate() }
    copyField(index, to: &bytes)
    return String(decoding: UnsafeBufferPointer(start: bytes.base, count: bytes.count), as: UTF8.self)
  }
}
