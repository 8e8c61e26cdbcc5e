/// A timestamp format declared for a column, in strptime's directives (`%Y/%m/%d`,
/// `%d %b %Y %I:%M %p`), compiled once and applied to every cell without allocating.
///
/// It follows Python's `datetime.strptime` (which pandas' `to_datetime(format=)` follows), in the C locale:
/// - `%Y` four-digit year; `%y` two digits, 69–99 → 1969–1999, 00–68 → 2000–2068;
/// - `%m` month 1–12, `%b` / `%B` an English month name, full or abbreviated (either directive reads both);
/// - `%d` day of the month (one or two digits, or a space and one digit), `%j` day of the year 1–366;
/// - `%H` hour 0–23, or `%I` 1–12 with `%p` (AM or PM); `%M` minute; `%S` second 0–59;
/// - `%f` a fraction of a second, 1–9 digits (usually after a literal `.`);
/// - `%z` an offset from UTC: `Z`, `±HH:MM`, `±HHMM` or `±HH`, subtracted to give UTC;
/// - `%a` / `%A` an English weekday name, read and not checked; `%%` a percent sign.
///
/// Every other character matches itself (letters in either case), and a space matches one or more
/// spaces. One- and two-digit fields take up to their width, as strptime does. Fields a format leaves
/// out default to 1900-01-01 00:00:00 (Python's defaults); a time without `%z` is UTC, as every time in
/// Benchbook is. Spaces around a cell are ignored.
public struct TimestampFormat: Sendable, Hashable, CustomStringConvertible {
  /// The format as written.
  public let text: String
  private let pieces: [Piece]

  private enum Piece: Hashable {
    /// Bytes that must appear as written (ASCII letters in either case).
    case literal([UInt8])
    /// One or more spaces or tabs.
    case space
    case field(Directive)
  }

  /// The directives understood, by their letter.
  enum Directive: Character, CaseIterable {
    case year4 = "Y"
    case year2 = "y"
    case month = "m"
    case monthName = "b"
    case monthFullName = "B"
    case day = "d"
    case dayOfYear = "j"
    case hour24 = "H"
    case hour12 = "I"
    case meridiem = "p"
    case minute = "M"
    case second = "S"
    case fraction = "f"
    case offset = "z"
    case weekdayName = "a"
    case weekdayFullName = "A"
  }

  /// Why a format cannot be used.
  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// Compiles `text`.
  /// - Throws: `Problem` for an unknown directive, a `%` at the end, a field given twice, or fields that
  ///   contradict each other (`%j` with a month, `%I` without `%p`).
  public init(_ text: String) throws(Problem) {
    self.text = text
    var pieces: [Piece] = []
    var seen: [Directive] = []
    var literal: [UInt8] = []
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { throw Problem(message: "the format is empty") }
    func flush() {
      if !literal.isEmpty { pieces.append(.literal(literal)) }
      literal = []
    }
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
        flush()
        if pieces.last != .space { pieces.append(.space) }
        index += 1
        continue
      }
      guard byte == UInt8(ascii: "%") else {
        literal.append(byte)
        index += 1
        continue
      }
      guard index + 1 < bytes.count else {
        throw Problem(message: "the format ends in a lone '%' (write '%%' for a percent sign)")
      }
      let letter = Character(Unicode.Scalar(bytes[index + 1]))
      index += 2
      if letter == "%" {
        literal.append(UInt8(ascii: "%"))
        continue
      }
      guard let directive = Directive(rawValue: letter) else {
        let known = Directive.allCases.map { "%\($0.rawValue)" }.joined(separator: " ")
        throw Problem(message: "unknown directive '%\(letter)' in '\(text)'; known: \(known) %%")
      }
      guard !seen.contains(directive) else {
        throw Problem(message: "'%\(letter)' appears twice in '\(text)'")
      }
      seen.append(directive)
      flush()
      pieces.append(.field(directive))
    }
    flush()
    func has(_ directive: Directive) -> Bool { seen.contains(directive) }
    let months = [Directive.month, .monthName, .monthFullName].filter(has)
    if months.count > 1 {
      throw Problem(
        message: "'\(text)' gives the month twice (\(months.map { "%\($0.rawValue)" }.joined(separator: ", ")))")
    }
    if has(.year4) && has(.year2) { throw Problem(message: "'\(text)' gives the year twice (%Y and %y)") }
    if has(.dayOfYear) && (has(.day) || !months.isEmpty) {
      throw Problem(message: "'\(text)' gives the day of the year (%j) and a month or day of the month besides")
    }
    if has(.hour24) && has(.hour12) { throw Problem(message: "'\(text)' gives the hour twice (%H and %I)") }
    if has(.hour12) != has(.meridiem) {
      throw Problem(
        message: has(.hour12)
          ? "'\(text)' has a 12-hour clock (%I) without AM or PM (%p); use %H for a 24-hour clock"
          : "'\(text)' has AM or PM (%p) without a 12-hour clock hour (%I)")
    }
    self.pieces = pieces
  }

  public var description: String { text }

  public static func == (a: TimestampFormat, b: TimestampFormat) -> Bool { a.text == b.text }
  public func hash(into hasher: inout Hasher) { hasher.combine(text) }

  /// Seconds since 1970 UTC of `text`, or `nil` when it does not match.
  public func seconds(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { seconds($0) }
  }

  /// Why `text` does not match, for messages (`expected '/' at character 5`); `nil` when it matches.
  public func mismatch(_ text: String) -> String? {
    var text = text
    var reason: String?
    _ = text.withUTF8 { read($0, reason: &reason) }
    return reason
  }

  /// Byte-level parse, cheap enough for every cell.
  func seconds(_ cell: UnsafeBufferPointer<UInt8>) -> Double? {
    var reason: String?
    return read(cell, reason: &reason, explains: false)
  }

  // MARK: - Matching

  private static let monthNames = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ].map { Array($0.utf8) }
  private static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    .map { Array($0.utf8) }

  /// The fields read so far.
  private struct Fields {
    var year = 1900
    var month = 1
    var day = 1
    var dayOfYear: Int?
    var hour = 0
    var twelveHour: Int?
    var afternoon = false
    var minute = 0
    var second = 0
    var fraction = 0.0
    var offsetMinutes = 0
  }

  /// Matches `cell` piece by piece; on failure sets `reason` (when `explains`) and returns `nil`.
  private func read(_ cell: UnsafeBufferPointer<UInt8>, reason: inout String?, explains: Bool = true) -> Double? {
    var cursor = CellCursor(cell, trimmingTabs: true)
    var fields = Fields()
    func fail(_ message: @autoclosure () -> String) -> Double? {
      if explains { reason = message() }
      return nil
    }
    for piece in pieces {
      switch piece {
      case .literal(let expected):
        for byte in expected {
          guard cursor.takeIgnoringCase(byte) else {
            return fail("expected '\(String(decoding: expected, as: UTF8.self))' \(cursor.place)")
          }
        }
      case .space:
        guard cursor.takeSpaces() else { return fail("expected a space \(cursor.place)") }
      case .field(let directive):
        let start = cursor.index
        switch directive {
        case .year4:
          guard let value = cursor.digits(exactly: 4) else {
            return fail("expected a four-digit year (%Y) \(cursor.place)")
          }
          fields.year = value
        case .year2:
          guard let value = cursor.digits(exactly: 2) else {
            return fail("expected a two-digit year (%y) \(cursor.place)")
          }
          fields.year = value < 69 ? 2000 + value : 1900 + value
        case .month:
          guard let value = cursor.digits(upTo: 2) else { return fail("expected a month number (%m) \(cursor.place)") }
          guard (1...12).contains(value) else {
            return fail("month \(value) is not 1 to 12 (%m) at character \(start + 1)")
          }
          fields.month = value
        case .monthName, .monthFullName:
          guard let index = cursor.name(among: Self.monthNames) else {
            return fail("expected an English month name (%\(directive.rawValue)) \(cursor.place)")
          }
          fields.month = index + 1
        case .day:
          guard let value = cursor.digits(upTo: 2, allowingLeadingSpace: true) else {
            return fail("expected a day of the month (%d) \(cursor.place)")
          }
          guard (1...31).contains(value) else {
            return fail("day \(value) is not 1 to 31 (%d) at character \(start + 1)")
          }
          fields.day = value
        case .dayOfYear:
          guard let value = cursor.digits(upTo: 3) else {
            return fail("expected a day of the year (%j) \(cursor.place)")
          }
          guard (1...366).contains(value) else {
            return fail("day of the year \(value) is not 1 to 366 (%j) at character \(start + 1)")
          }
          fields.dayOfYear = value
        case .hour24:
          guard let value = cursor.digits(upTo: 2) else { return fail("expected an hour (%H) \(cursor.place)") }
          guard value <= 23 else { return fail("hour \(value) is not 0 to 23 (%H) at character \(start + 1)") }
          fields.hour = value
        case .hour12:
          guard let value = cursor.digits(upTo: 2, allowingLeadingSpace: true) else {
            return fail("expected an hour 1 to 12 (%I) \(cursor.place)")
          }
          guard (1...12).contains(value) else {
            return fail("hour \(value) is not 1 to 12 (%I) at character \(start + 1)")
          }
          fields.twelveHour = value
        case .meridiem:
          if cursor.word("am") {
            fields.afternoon = false
          } else if cursor.word("pm") {
            fields.afternoon = true
          } else {
            return fail("expected AM or PM (%p) \(cursor.place)")
          }
        case .minute:
          guard let value = cursor.digits(upTo: 2) else { return fail("expected minutes (%M) \(cursor.place)") }
          guard value <= 59 else { return fail("minute \(value) is not 0 to 59 (%M) at character \(start + 1)") }
          fields.minute = value
        case .second:
          guard let value = cursor.digits(upTo: 2) else { return fail("expected seconds (%S) \(cursor.place)") }
          guard value <= 59 else { return fail("second \(value) is not 0 to 59 (%S) at character \(start + 1)") }
          fields.second = value
        case .fraction:
          guard let value = cursor.fraction(maximumDigits: 9) else {
            return fail("expected 1 to 9 digits of a fraction of a second (%f) \(cursor.place)")
          }
          fields.fraction = value
        case .offset:
          guard let minutes = cursor.offset() else {
            return fail("expected an offset from UTC such as +01:00, -0500 or Z (%z) \(cursor.place)")
          }
          fields.offsetMinutes = minutes
        case .weekdayName, .weekdayFullName:
          guard cursor.name(among: Self.weekdayNames) != nil else {
            return fail("expected an English weekday name (%\(directive.rawValue)) \(cursor.place)")
          }
        }
      }
    }
    guard cursor.atEnd else { return fail("unexpected text \(cursor.place) after the format's last field") }
    if let twelve = fields.twelveHour { fields.hour = twelve % 12 + (fields.afternoon ? 12 : 0) }
    if let dayOfYear = fields.dayOfYear {
      let length = CivilCalendar.isLeapYear(fields.year) ? 366 : 365
      guard dayOfYear <= length else { return fail("\(fields.year) has no day \(dayOfYear) (%j)") }
      var month = 1
      var before = 0
      while before + CivilCalendar.daysInMonth(month, year: fields.year) < dayOfYear {
        before += CivilCalendar.daysInMonth(month, year: fields.year)
        month += 1
      }
      fields.month = month
      fields.day = dayOfYear - before
    }
    guard fields.day <= CivilCalendar.daysInMonth(fields.month, year: fields.year) else {
      return fail(
        "\(Self.monthName(fields.month)) \(fields.year) has no day \(fields.day)")
    }
    guard
      let local = Timestamp.seconds(
        year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
        second: Double(fields.second))
    else { return fail("not a valid time") }
    return local + fields.fraction - Double(fields.offsetMinutes * 60)
  }

  private static func monthName(_ month: Int) -> String {
    let name = String(decoding: monthNames[month - 1], as: UTF8.self)
    return name.prefix(1).uppercased() + name.dropFirst()
  }
}
