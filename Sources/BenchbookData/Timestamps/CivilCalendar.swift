/// Proleptic Gregorian calendar arithmetic on day counts since 1970-01-01,
/// in plain integers so converting 300,000 timestamps costs microseconds.
enum CivilCalendar {
  /// Days before each month in a common year.
  static let daysBeforeMonth: [Int] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

  static func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysInMonth(_ month: Int, year: Int) -> Int {
    month == 2 && isLeapYear(year) ? 29 : daysBeforeMonth[month] - daysBeforeMonth[month - 1]
  }

  /// Division rounding toward minus infinity, so dates before 1970 work.
  @inline(__always)
  static func floorDivide(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  /// Days from 0001-01-01 to January 1st of `year`: 365 a year plus one per
  /// leap year before it (every 4th, not every 100th, again every 400th).
  static func daysBeforeYear(_ year: Int) -> Int {
    let y = year - 1
    return 365 * y + floorDivide(y, 4) - floorDivide(y, 100) + floorDivide(y, 400)
  }

  static let epochOffset = daysBeforeYear(1970)

  /// Days since 1970-01-01 of a valid date.
  static func days(year: Int, month: Int, day: Int) -> Int {
    let leapDay = month > 2 && isLeapYear(year) ? 1 : 0
    return daysBeforeYear(year) - epochOffset + daysBeforeMonth[month - 1] + leapDay + day - 1
  }

  /// The date `days` after 1970-01-01.
  static func date(days: Int) -> (year: Int, month: Int, day: Int) {
    // Guess the year from the mean year length, then correct the guess.
    var year = 1970 + Int((Double(days) / 365.2425).rounded(.down))
    while Self.days(year: year, month: 1, day: 1) > days { year -= 1 }
    while Self.days(year: year + 1, month: 1, day: 1) <= days { year += 1 }
    var dayOfYear = days - Self.days(year: year, month: 1, day: 1)
    let leap = isLeapYear(year)
    if leap && dayOfYear == 59 { return (year, 2, 29) }
    if leap && dayOfYear > 59 { dayOfYear -= 1 }
    var month = 1
    while daysBeforeMonth[month] <= dayOfYear { month += 1 }
    return (year, month, dayOfYear - daysBeforeMonth[month - 1] + 1)
  }
}
