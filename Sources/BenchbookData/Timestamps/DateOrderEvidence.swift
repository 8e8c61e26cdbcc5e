/// What a column's dates that are not ISO 8601 show of their field order, gathered from every such cell as the file
/// streams past, for the `formats:` hint of a column read as times without a declared format. A first field above 12
/// (`21/03/2020`) can only be a day; a second field above 12 (`03/21/2020`) puts the month first. Neither
/// (`03/04/2020` alone) leaves the order open, and the hint then offers both orders: guessing one would have the
/// next run misread every date whose day is 12 or less, in silence.
struct DateOrderEvidence: Sendable, Equatable {
  /// Some cell's first field is above 12: the day comes first.
  private(set) var dayFirst = false
  /// Some cell's second field is above 12: the month comes first.
  private(set) var monthFirst = false

  /// A cell that is no ISO 8601 time; one written `d?d<sep>d?d<sep>yy(yy)`, time or not, counts.
  mutating func add(_ cell: UnsafeBufferPointer<UInt8>) {
    guard !(dayFirst && monthFirst), let shape = Shape(cell), !shape.yearFirst else { return }
    if shape.first > 12 { dayFirst = true }
    if shape.second > 12 { monthFirst = true }
  }

  /// The strptime formats to suggest for a column whose cells are like `sample`, the order taken from the values:
  /// one format when they decide it (and for a year written first, `%Y/%m/%d`), the day-first then the month-first
  /// one when they do not, and none when `sample` is no date of a shape the hint knows.
  func formats(for sample: String) -> [String] {
    guard let shape = Shape(Array(sample.utf8)) else { return [] }
    let separator = String(UnicodeScalar(shape.separator))
    let time = shape.time
    if shape.yearFirst { return ["%Y\(separator)%m\(separator)%d" + time] }
    let year = shape.yearDigits == 4 ? "%Y" : "%y"
    let dayFirstFormat = "%d\(separator)%m\(separator)\(year)" + time
    let monthFirstFormat = "%m\(separator)%d\(separator)\(year)" + time
    switch (dayFirst, monthFirst) {
    case (true, false): return [dayFirstFormat]
    case (false, true): return [monthFirstFormat]
    default: return [dayFirstFormat, monthFirstFormat]
    }
  }

  /// `d?d<sep>d?d<sep>yy(yy)` or `yyyy<sep>d?d<sep>d?d`, `sep` one of `/`, `-`, `.`, then nothing or a time
  /// (` ` or `T`, then `HH:MM` or `HH:MM:SS`), spaces around it ignored.
  private struct Shape {
    var first = 0
    var second = 0
    var separator: UInt8 = 0
    var yearFirst = false
    var yearDigits = 0
    /// The time part's directives, with the byte before them (` %H:%M:%S`), or "".
    var time = ""

    init?<Bytes: BidirectionalCollection<UInt8>>(_ cell: Bytes) {
      var bytes = cell.drop { $0 == UInt8(ascii: " ") }[...]
      while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
      func digits(_ allowed: ClosedRange<Int>) -> (value: Int, count: Int)? {
        let run = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard allowed.contains(run.count) else { return nil }
        bytes = bytes.dropFirst(run.count)
        return (run.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }, run.count)
      }
      guard let head = digits(1...4), let separator = bytes.popFirst(),
        [UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: ".")].contains(separator), let middle = digits(1...2),
        bytes.popFirst() == separator, let last = digits(1...4)
      else { return nil }
      self.separator = separator
      if head.count == 4 {
        guard last.count <= 2 else { return nil }
        yearFirst = true
        yearDigits = 4
      } else {
        guard head.count <= 2, last.count == 2 || last.count == 4 else { return nil }
        yearDigits = last.count
      }
      first = head.value
      second = middle.value
      guard let mark = bytes.popFirst() else { return }
      guard mark == UInt8(ascii: " ") || mark == UInt8(ascii: "T"), digits(1...2) != nil,
        bytes.popFirst() == UInt8(ascii: ":"), digits(2...2) != nil
      else { return nil }
      time = String(UnicodeScalar(mark)) + "%H:%M"
      guard !bytes.isEmpty else { return }
      guard bytes.popFirst() == UInt8(ascii: ":"), digits(2...2) != nil, bytes.isEmpty else { return nil }
      time += ":%S"
    }
  }
}
