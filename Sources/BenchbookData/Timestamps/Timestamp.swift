/// Timestamps as seconds since 1970-01-01T00:00:00Z, from ISO-8601 text.
///
/// Accepted forms: `2013-01-01`, `2013-01-01T10:00`, `2013-01-01T10:00:00`,
/// `2013-01-01 10:00:00` (space or `T`), fractional seconds
/// (`10:00:00.5`), and a zone of `Z` or `±HH:MM` / `±HHMM` / `±HH`. Text
/// without a zone is taken as UTC, as pandas does for naive timestamps.
/// Dates and times are range-checked (no 2013-02-29, no 24:00).
public enum Timestamp {
  /// Seconds since 1970 UTC of an ISO-8601 timestamp, or `nil` if `text` is not one.
  public static func parse(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { parse($0) }
  }

  /// Seconds since 1970 UTC of ISO-8601 text, or of a plain number (Unix seconds).
  public static func seconds(from text: String) -> Double? {
    var text = text
    return text.withUTF8 { seconds(from: $0) }
  }

  /// Seconds since 1970 UTC of a UTC calendar time; `nil` if the fields are out of range.
  public static func seconds(
    year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0
  ) -> Double? {
    guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(month, year: year),
      (0...23).contains(hour), (0...59).contains(minute), second >= 0, second < 60
    else { return nil }
    let days = CivilCalendar.days(year: year, month: month, day: day)
    return Double(days * 86_400 + hour * 3_600 + minute * 60) + second
  }

  /// The moments `parts(ofSeconds:)` takes apart: within 2^53 seconds of 1970 (about 285 million years),
  /// where every whole second is still its own `Double`. Further out, seconds do not fit an `Int`.
  public static let partsRange: ClosedRange<Double> = -0x1p53...0x1p53

  /// The UTC calendar fields of a moment (seconds rounded down).
  /// - Precondition: `partsRange` contains `seconds`.
  public static func parts(ofSeconds seconds: Double) -> CalendarParts {
    let whole = Int(seconds.rounded(.down))
    let days = CivilCalendar.floorDivide(whole, 86_400)
    let secondOfDay = whole - days * 86_400
    let date = CivilCalendar.date(days: days)
    // 1970-01-01 was a Thursday, weekday 3 when Monday is 0.
    let weekday = ((days + 3) % 7 + 7) % 7
    return CalendarParts(
      year: date.year, month: date.month, day: date.day, weekday: weekday,
      hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60, second: secondOfDay % 60)
  }

  /// ISO text or a plain number, byte-level.
  static func seconds(from cell: UnsafeBufferPointer<UInt8>) -> Double? {
    parse(cell) ?? NumberParser.parse(cell)
  }

  /// Byte-level ISO-8601 parse.
  static func parse(_ cell: UnsafeBufferPointer<UInt8>) -> Double? {
    var text = CellCursor(cell, trimmingTabs: false)
    guard let year = text.digits(exactly: 4), text.take("-"), let month = text.digits(exactly: 2), text.take("-"),
      let day = text.digits(exactly: 2)
    else { return nil }
    var hour = 0
    var minute = 0
    var second = 0.0
    var offsetMinutes = 0
    if !text.atEnd {
      guard text.take("T") || text.take("t") || text.take(" ") else { return nil }
      guard let h = text.digits(exactly: 2), text.take(":"), let m = text.digits(exactly: 2) else { return nil }
      hour = h
      minute = m
      if text.take(":") {
        guard let s = text.digits(exactly: 2) else { return nil }
        second = Double(s)
        if text.take(".") || text.take(",") {
          guard let fraction = text.fraction() else { return nil }
          second += fraction
        }
      }
      if text.take("Z") || text.take("z") {
      } else if let sign = text.sign() {
        guard let offsetHours = text.digits(exactly: 2), offsetHours <= 23 else { return nil }
        var offsetMins = 0
        if !text.atEnd {
          _ = text.take(":")
          guard let m = text.digits(exactly: 2), m <= 59 else { return nil }
          offsetMins = m
        }
        offsetMinutes = sign * (offsetHours * 60 + offsetMins)
      }
      guard text.atEnd else { return nil }
    }
    guard let local = seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
      return nil
    }
    return local - Double(offsetMinutes * 60)
  }
}
