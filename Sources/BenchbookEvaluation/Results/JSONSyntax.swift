/// Finds where a JSON text first breaks the grammar, so `report` can point at a line and column
/// rather than repeat the decoder's position-free message. Iterative: any nesting depth is safe.
enum JSONSyntax {
  struct Fault: Equatable {
    var line: Int
    var column: Int
    var message: String
  }

  /// Deeper than this is refused, as Foundation's decoder refuses it.
  static let maximumDepth = 512

  /// The first syntax error in `bytes`, or nil when they are one well-formed JSON value.
  static func firstFault(_ bytes: [UInt8]) -> Fault? {
    guard let (offset, message) = scan(bytes) else { return nil }
    return place(offset, in: bytes, message)
  }

  /// 1-based line and column (in characters) of a byte offset.
  static func place(_ offset: Int, in bytes: [UInt8], _ message: String) -> Fault {
    var line = 1
    var column = 1
    for byte in bytes[..<min(offset, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return Fault(line: line, column: column, message: message)
  }

  private enum Container { case array, object }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
  }

  private static func scan(_ b: [UInt8]) -> (Int, String)? {
    if String(validating: b, as: UTF8.self) == nil {
      var parser = Unicode.UTF8.ForwardParser()
      var iterator = b.makeIterator()
      var offset = 0
      while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
      return (offset, "not UTF-8 text")
    }
    var i = 0
    var stack: [Container] = []
    func skipSpace() {
      while i < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[i]) { i += 1 }
    }
    func describe() -> String {
      i < b.count ? "unexpected '\(String(decoding: [b[i]], as: UTF8.self))'" : "unexpected end of the file"
    }
    func literal(_ word: String) -> (Int, String)? {
      let expected = Array(word.utf8)
      guard i + expected.count <= b.count, Array(b[i..<(i + expected.count)]) == expected else {
        return (i, "\(describe()), expected a value")
      }
      i += expected.count
      return nil
    }
    func digits() -> Int {
      let start = i
      while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
      return i - start
    }
    func number() -> (Int, String)? {
      let start = i
      if b[i] == UInt8(ascii: "-") { i += 1 }
      if i < b.count, b[i] == UInt8(ascii: "0") {
        i += 1
      } else if digits() == 0 {
        return (start, "malformed number")
      }
      if i < b.count, b[i] == UInt8(ascii: ".") {
        i += 1
        if digits() == 0 { return (start, "malformed number") }
      }
      if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
        i += 1
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        if digits() == 0 { return (start, "malformed number") }
      }
      if let parsed = Double(String(decoding: b[start..<i], as: UTF8.self)), !parsed.isFinite {
        return (start, "number too large for a 64-bit double")
      }
      return nil
    }
    func string() -> (Int, String)? {
      let start = i
      i += 1
      while i < b.count {
        switch b[i] {
        case UInt8(ascii: "\""):
          i += 1
          return nil
        case UInt8(ascii: "\\"):
          guard i + 1 < b.count else { return (start, "unterminated string") }
          let escaped = b[i + 1]
          if escaped == UInt8(ascii: "u") {
            let hex = i + 2 < b.count ? b[(i + 2)..<min(i + 6, b.count)] : []
            guard hex.count == 4, hex.allSatisfy(isHexDigit) else {
              return (i, "malformed \\u escape")
            }
            i += 6
          } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
            i += 2
          } else {
            return (i, "unknown escape '\\\(String(decoding: [escaped], as: UTF8.self))'")
          }
        case 0..<0x20:
          return (i, "control character in a string")
        default:
          i += 1
        }
      }
      return (start, "unterminated string")
    }

    /// Reads one scalar value or opens a container; returns an error, or nil.
    func value() -> (Int, String)? {
      skipSpace()
      guard i < b.count else { return (i, "unexpected end of the file, expected a value") }
      switch b[i] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard stack.count < maximumDepth else { return (i, "nested more than \(maximumDepth) levels deep") }
        stack.append(b[i] == UInt8(ascii: "{") ? .object : .array)
        i += 1
        return nil
      case UInt8(ascii: "\""): return string()
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
      default: return (i, "\(describe()), expected a value")
      }
    }
    if let fault = value() { return fault }
    // After a value, or an opened container: close, separate, or expect the next member.
    var justOpened = !stack.isEmpty
    while let top = stack.last {
      skipSpace()
      if justOpened {
        justOpened = false
        if i < b.count, b[i] == (top == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          i += 1
          stack.removeLast()
          continue
        }
      } else if i < b.count, b[i] == UInt8(ascii: ",") {
        i += 1
        skipSpace()
      } else if i < b.count, b[i] == (top == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
        i += 1
        stack.removeLast()
        continue
      } else {
        return (i, "\(describe()), expected ',' or '\(top == .object ? "}" : "]")'")
      }
      if top == .object {
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { return (i, "\(describe()), expected a key in quotes") }
        if let fault = string() { return fault }
        skipSpace()
        guard i < b.count, b[i] == UInt8(ascii: ":") else { return (i, "\(describe()), expected ':'") }
        i += 1
      }
      let depth = stack.count
      if let fault = value() { return fault }
      justOpened = stack.count > depth
    }
    skipSpace()
    if i < b.count { return (i, "\(describe()) after the end of the JSON value") }
    return nil
  }
}
