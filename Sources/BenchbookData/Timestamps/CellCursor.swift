/// Reads a timestamp cell left to right, byte by byte: ISO 8601 text (`Timestamp.parse`) and a declared format
/// (`TimestampFormat`). A struct with mutating methods rather than closures over a local index, which would cost a
/// dynamic exclusivity check per character.
struct CellCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  let end: Int

  /// - Parameter trimmingTabs: tabs around the cell are ignored as spaces are (`TimestampFormat`'s cells, as
  ///   strptime reads them); ISO 8601 text (`Timestamp.parse`) ignores spaces only.
  init(_ bytes: UnsafeBufferPointer<UInt8>, trimmingTabs: Bool) {
    self.bytes = bytes
    // The other byte trimmed besides a space: a tab, or a space again when tabs stay.
    let alsoTrimmed: UInt8 = trimmingTabs ? 0x09 : 0x20
    var start = 0
    var end = bytes.count
    while start < end && (bytes[start] == 0x20 || bytes[start] == alsoTrimmed) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == alsoTrimmed) { end -= 1 }
    index = start
    self.end = end
  }

  var atEnd: Bool { index == end }

  /// `at character 5 ('-')` or `at the end`, for messages; counts bytes from the cell's start.
  var place: String {
    guard index < end else { return "at the end" }
    let byte = bytes[index]
    let shown = byte < 0x80 && byte >= 0x20 ? " ('\(Character(Unicode.Scalar(byte)))')" : ""
    return "at character \(index + 1)\(shown)"
  }

  @inline(__always)
  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  mutating func takeIgnoringCase(_ byte: UInt8) -> Bool {
    guard index < end, Self.lower(bytes[index]) == Self.lower(byte) else { return false }
    index += 1
    return true
  }

  mutating func take(_ ascii: Unicode.Scalar) -> Bool {
    guard index < end, bytes[index] == UInt8(ascii: ascii) else { return false }
    index += 1
    return true
  }

  /// `+` → 1, `-` → -1, otherwise `nil` and nothing consumed.
  mutating func sign() -> Int? {
    if take("+") { return 1 }
    if take("-") { return -1 }
    return nil
  }

  /// Every digit after a decimal point as a fraction of one (at most 15 used): ISO 8601 sets no limit.
  mutating func fraction() -> Double? {
    var value = 0
    var scale = 1
    var count = 0
    while index < end, case let digit = bytes[index] &- 0x30, digit < 10 {
      if count < 15 {
        value = value * 10 + Int(digit)
        scale *= 10
      }
      count += 1
      index += 1
    }
    return count > 0 ? Double(value) / Double(scale) : nil
  }

  mutating func takeSpaces() -> Bool {
    let start = index
    while index < end && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
    return index > start
  }

  mutating func digits(exactly count: Int) -> Int? {
    guard index + count <= end else { return nil }
    var value = 0
    for k in index..<(index + count) {
      let digit = bytes[k] &- 0x30
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)
    }
    index += count
    return value
  }

  /// One to `width` digits, as many as there are; with `allowingLeadingSpace`, also a space then one digit
  /// (strptime's ` 1` for a space-padded day or hour).
  mutating func digits(upTo width: Int, allowingLeadingSpace: Bool = false) -> Int? {
    if allowingLeadingSpace && index + 1 < end && bytes[index] == 0x20 && bytes[index + 1] &- 0x30 < 10 {
      index += 2
      return Int(bytes[index - 1] &- 0x30)
    }
    var value = 0
    var count = 0
    while count < width && index < end, case let digit = bytes[index] &- 0x30, digit < 10 {
      value = value * 10 + Int(digit)
      index += 1
      count += 1
    }
    return count > 0 ? value : nil
  }

  /// 1 to `maximumDigits` digits as a fraction of one.
  mutating func fraction(maximumDigits: Int) -> Double? {
    var value = 0
    var scale = 1
    var count = 0
    while count < maximumDigits && index < end, case let digit = bytes[index] &- 0x30, digit < 10 {
      value = value * 10 + Int(digit)
      scale *= 10
      index += 1
      count += 1
    }
    return count > 0 ? Double(value) / Double(scale) : nil
  }

  /// The longest of `names` (lowercase) or of their three-letter abbreviations that the text starts with, in
  /// any case; its index.
  mutating func name(among names: [[UInt8]]) -> Int? {
    for (number, name) in names.enumerated() where matches(name) {
      index += name.count
      return number
    }
    for (number, name) in names.enumerated() where matches(name[0..<3]) {
      index += 3
      return number
    }
    return nil
  }

  /// `word` (lowercase ASCII) in any case.
  mutating func word(_ word: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard matches(expected) else { return false }
    index += expected.count
    return true
  }

  private func matches<C: Collection>(_ lowercase: C) -> Bool where C.Element == UInt8 {
    guard index + lowercase.count <= end else { return false }
    var position = index
    for byte in lowercase {
      guard Self.lower(bytes[position]) == byte else { return false }
      position += 1
    }
    return true
  }

  /// `Z`, `±HH`, `±HHMM` or `±HH:MM` as signed minutes.
  mutating func offset() -> Int? {
    // An upper-case Z only, as strptime reads it.
    if index < end && bytes[index] == UInt8(ascii: "Z") {
      index += 1
      return 0
    }
    guard index < end else { return nil }
    let sign: Int
    switch bytes[index] {
    case UInt8(ascii: "+"): sign = 1
    case UInt8(ascii: "-"): sign = -1
    default: return nil
    }
    let start = index
    index += 1
    guard let hours = digits(exactly: 2), hours <= 23 else {
      index = start
      return nil
    }
    var minutes = 0
    let colon = index < end && bytes[index] == UInt8(ascii: ":")
    if colon { index += 1 }
    if let value = digits(exactly: 2) {
      guard value <= 59 else {
        index = start
        return nil
      }
      minutes = value
    } else if colon {
      index = start
      return nil
    }
    return sign * (hours * 60 + minutes)
  }
}
