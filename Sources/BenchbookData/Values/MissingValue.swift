/// The spellings that mean "no value" in a CSV cell.
///
/// The list is deliberately short and exact (case-sensitive, no surrounding
/// spaces): the empty field, `NA`, `N/A`, `NaN`, `nan`, `null`, `NULL`. These
/// are the ones pandas also treats as missing by default, so row counts after
/// dropping agree with `pandas.read_csv(...).dropna()` on files that use them.
public enum MissingValue {
  public static let tokens: [String] = ["", "NA", "N/A", "NaN", "nan", "null", "NULL"]

  /// Whether `text` is one of `tokens`.
  public static func isMissing(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isMissing($0) }
  }

  /// Byte-level test, cheap enough to run on every cell.
  @inline(__always)
  static func isMissing(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
    switch cell.count {
    case 0: return true
    case 2: return cell[0] == UInt8(ascii: "N") && cell[1] == UInt8(ascii: "A")
    case 3:
      let (a, b, c) = (cell[0], cell[1], cell[2])
      return (a == UInt8(ascii: "N") && b == UInt8(ascii: "/") && c == UInt8(ascii: "A"))
        || (a == UInt8(ascii: "N") && b == UInt8(ascii: "a") && c == UInt8(ascii: "N"))
        || (a == UInt8(ascii: "n") && b == UInt8(ascii: "a") && c == UInt8(ascii: "n"))
    case 4:
      let (a, b, c, d) = (cell[0], cell[1], cell[2], cell[3])
      return (a == UInt8(ascii: "n") && b == UInt8(ascii: "u") && c == UInt8(ascii: "l") && d == UInt8(ascii: "l"))
        || (a == UInt8(ascii: "N") && b == UInt8(ascii: "U") && c == UInt8(ascii: "L") && d == UInt8(ascii: "L"))
    default: return false
    }
  }
}
