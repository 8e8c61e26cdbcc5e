/// Decimal number parsing that agrees bit for bit with `strtod` (correctly
/// rounded), but accepts only plain decimal numbers.
///
/// Accepted: optional spaces, an optional sign, digits with an optional
/// fraction (`5`, `-3.25`, `+4`, `.5`, `5.`), an optional exponent (`1e5`,
/// `2.5E-3`), optional spaces. Not accepted: `inf`, `nan`, hex, thousands
/// separators, which pandas would also not read as numbers. A number too
/// large for a `Double` (`1e309`) is not accepted either: it would become
/// infinity, which no model can use.
///
/// Under a decimal comma (`CSVDialect.decimalSeparator`, as European spreadsheets write `3,14`) the
/// comma takes the point's place, and a point is then not part of a number.
public enum NumberParser {
  public static let point = UInt8(ascii: ".")

  /// The value of `text`, or `nil` when it is not a plain decimal number or overflows.
  /// - Parameter decimal: the decimal separator, `.` or `,`.
  public static func parse(_ text: String, decimal: UInt8 = point) -> Double? {
    var text = text
    return text.withUTF8 { parse($0, decimal: decimal) }
  }

  /// Whether `text` is written as a plain decimal number whose value overflows to infinity.
  public static func overflows(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { value($0)?.isFinite == false }
  }

  /// A cell's value when finite, or `nil`.
  static func parse(_ cell: UnsafeBufferPointer<UInt8>, decimal: UInt8 = point) -> Double? {
    guard let value = decimal == point ? value(cell) : value(cell, decimal: decimal), value.isFinite else {
      return nil
    }
    return value
  }

  /// Powers of ten that are exact in a `Double`.
  private static let exactPowers: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// Byte-level parse used on every cell; ±infinity when the number overflows.
  ///
  /// Fast path (Clinger): when the significant digits fit in 2^53 and the
  /// decimal exponent is within ±22, both operands are exact doubles, so one
  /// IEEE multiplication or division rounds correctly. Anything else goes
  /// through the standard library's correctly rounded conversion.
  static func value(_ cell: UnsafeBufferPointer<UInt8>) -> Double? {
    value(cell, separator: point)
  }

  /// `value(_:)` with another decimal separator; a copy of its own, so the point's stays a constant there.
  static func value(_ cell: UnsafeBufferPointer<UInt8>, decimal: UInt8) -> Double? {
    value(cell, separator: decimal)
  }

  @inline(__always)
  private static func value(_ cell: UnsafeBufferPointer<UInt8>, separator decimal: UInt8) -> Double? {
    var i = 0
    var n = cell.count
    while i < n && (cell[i] == 0x20 || cell[i] == 0x09) { i += 1 }
    while n > i && (cell[n - 1] == 0x20 || cell[n - 1] == 0x09) { n -= 1 }
    let start = i
    var negative = false
    if i < n && (cell[i] == UInt8(ascii: "-") || cell[i] == UInt8(ascii: "+")) {
      negative = cell[i] == UInt8(ascii: "-")
      i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0  // significant digits kept in `mantissa`
    var dropped = false  // digits that did not fit
    var scale = 0  // decimal exponent adjustment from the fraction and dropped digits
    var sawDigit = false
    while i < n, case let d = cell[i] &- 0x30, d < 10 {
      sawDigit = true
      if mantissa == 0 && d == 0 {
      } else if digits < 19 {
        mantissa = mantissa &* 10 &+ UInt64(d)
        digits += 1
      } else {
        dropped = true
        scale += 1
      }
      i += 1
    }
    if i < n && cell[i] == decimal {
      i += 1
      while i < n, case let d = cell[i] &- 0x30, d < 10 {
        sawDigit = true
        if mantissa == 0 && d == 0 {
          scale -= 1
        } else if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(d)
          digits += 1
          scale -= 1
        } else {
          dropped = true
        }
        i += 1
      }
    }
    guard sawDigit else { return nil }
    if i < n && (cell[i] == UInt8(ascii: "e") || cell[i] == UInt8(ascii: "E")) {
      i += 1
      var exponentNegative = false
      if i < n && (cell[i] == UInt8(ascii: "-") || cell[i] == UInt8(ascii: "+")) {
        exponentNegative = cell[i] == UInt8(ascii: "-")
        i += 1
      }
      var exponent = 0
      var sawExponentDigit = false
      while i < n, case let d = cell[i] &- 0x30, d < 10 {
        sawExponentDigit = true
        if exponent < 100_000 { exponent = exponent * 10 + Int(d) }
        i += 1
      }
      guard sawExponentDigit else { return nil }
      scale += exponentNegative ? -exponent : exponent
    }
    guard i == n else { return nil }

    if mantissa == 0 { return negative ? -0.0 : 0.0 }
    if !dropped && mantissa <= (1 << 53) && scale >= -22 && scale <= 22 {
      var value = Double(mantissa)
      if scale > 0 {
        value *= exactPowers[scale]
      } else if scale < 0 {
        value /= exactPowers[-scale]
      }
      return negative ? -value : value
    }
    // Rare (long or extreme numbers): the already-validated text goes to the
    // standard library, which rounds correctly and ignores the C locale (and reads only a point).
    let written = UnsafeBufferPointer(rebasing: cell[start..<n])
    guard decimal != point, let separator = written.firstIndex(of: decimal) else {
      return Double(String(decoding: written, as: UTF8.self))
    }
    var bytes = Array(written)
    bytes[separator] = point
    return Double(String(decoding: bytes, as: UTF8.self))
  }
}
