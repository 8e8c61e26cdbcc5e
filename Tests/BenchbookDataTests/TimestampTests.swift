import BenchbookData
import Testing

/// Expected seconds are from `pd.Timestamp(text).timestamp()` (naive = UTC),
/// e.g. `python3 -c "import pandas as pd; print(pd.Timestamp('2013-01-01T10:00:00+02:00').timestamp())"`.
@Suite struct TimestampTests {
  @Test(arguments: [
    ("2013-01-01T10:00:00Z", 1_357_034_400.0),
    ("2013-01-01 10:00:00", 1_357_034_400.0),
    ("2013-01-01T10:00:00+02:00", 1_357_027_200.0),
    ("2013-01-01T10:00:00-0530", 1_357_054_200.0),
    ("2013-01-01T10:00:00+02", 1_357_027_200.0),
    ("2013-01-01T10:00:00.5Z", 1_357_034_400.5),
    ("2013-01-01T10:00:00,25Z", 1_357_034_400.25),
    ("2013-01-01T10:00Z", 1_357_034_400.0),
    ("2013-01-01", 1_356_998_400.0),
    ("1970-01-01T00:00:00Z", 0),
    ("1969-12-31T23:59:59Z", -1),
    ("1900-03-01", -2_203_891_200),
    ("2000-02-29T12:00:00Z", 951_825_600),
    ("2012-02-29", 1_330_473_600),
    ("2400-02-29", 13_574_563_200),
    ("2038-01-19T03:14:08Z", 2_147_483_648),
  ])
  func parsesISO8601(text: String, seconds: Double) {
    #expect(Timestamp.parse(text) == seconds, "\(text)")
    #expect(Timestamp.seconds(from: text) == seconds, "\(text)")
  }

  @Test(arguments: [
    "2013-02-29", "1900-02-29", "2100-02-29", "2013-13-01", "2013-00-10", "2013-04-31", "2013-01-01T24:00:00Z",
    "2013-01-01T10:60:00Z", "2013-01-01T10:00:60Z", "2013-1-1", "13-01-01", "2013/01/01", "2013-01-01T",
    "2013-01-01T10",
    "2013-01-01T10:00:00.Z", "2013-01-01T10:00:00+2", "2013-01-01T10:00:00 UTC", "20130101", "", "abc",
  ])
  func rejectsInvalid(text: String) {
    #expect(Timestamp.parse(text) == nil, "\(text)")
  }

  @Test func numericTextIsUnixSeconds() {
    #expect(Timestamp.seconds(from: "1357034400") == 1_357_034_400)
    #expect(Timestamp.seconds(from: "-1.5") == -1.5)
    #expect(Timestamp.parse("1357034400") == nil)
  }

  /// Weekdays as pandas numbers them: Monday 0 … Sunday 6.
  @Test(arguments: [
    ("2013-01-01T10:17:00Z", CalendarParts(year: 2013, month: 1, day: 1, weekday: 1, hour: 10, minute: 17, second: 0)),
    (
      "2013-12-31T23:59:59Z",
      CalendarParts(year: 2013, month: 12, day: 31, weekday: 1, hour: 23, minute: 59, second: 59)
    ),
    ("2012-02-29T06:05:04Z", CalendarParts(year: 2012, month: 2, day: 29, weekday: 2, hour: 6, minute: 5, second: 4)),
    ("2012-03-01T00:00:00Z", CalendarParts(year: 2012, month: 3, day: 1, weekday: 3, hour: 0, minute: 0, second: 0)),
    ("2000-12-31T12:00:00Z", CalendarParts(year: 2000, month: 12, day: 31, weekday: 6, hour: 12, minute: 0, second: 0)),
    ("2024-01-01T00:00:00Z", CalendarParts(year: 2024, month: 1, day: 1, weekday: 0, hour: 0, minute: 0, second: 0)),
    (
      "1969-12-31T23:59:59Z",
      CalendarParts(year: 1969, month: 12, day: 31, weekday: 2, hour: 23, minute: 59, second: 59)
    ),
    ("1900-01-01T00:00:00Z", CalendarParts(year: 1900, month: 1, day: 1, weekday: 0, hour: 0, minute: 0, second: 0)),
    // 01:30 at +02:00 is 23:30 UTC the day before.
    (
      "2013-03-01T01:30:00+02:00",
      CalendarParts(year: 2013, month: 2, day: 28, weekday: 3, hour: 23, minute: 30, second: 0)
    ),
  ])
  func partsInUTC(text: String, parts: CalendarParts) throws {
    let seconds = try #require(Timestamp.parse(text))
    #expect(Timestamp.parts(ofSeconds: seconds) == parts, "\(text)")
  }

  @Test func partsRoundDownWithinTheSecond() {
    #expect(Timestamp.parts(ofSeconds: -0.5).description == "1969-12-31T23:59:59Z")
    #expect(Timestamp.parts(ofSeconds: 59.999).second == 59)
  }

  /// Every day from 1899 to 2101 survives date → seconds → parts, and
  /// consecutive days are 86,400 s apart.
  @Test func roundTripsEveryDay() throws {
    var previous: Double?
    var weekday = Timestamp.parts(ofSeconds: try #require(Timestamp.seconds(year: 1899, month: 1, day: 1))).weekday
    for year in 1899...2101 {
      for month in 1...12 {
        for day in 1...31 {
          guard let seconds = Timestamp.seconds(year: year, month: month, day: day, hour: 13, minute: 7) else {
            continue
          }
          let parts = Timestamp.parts(ofSeconds: seconds)
          #expect(parts.year == year && parts.month == month && parts.day == day && parts.hour == 13)
          #expect(parts.weekday == weekday)
          if let previous { #expect(seconds - previous == 86_400) }
          previous = seconds
          weekday = (weekday + 1) % 7
        }
      }
    }
    #expect(Timestamp.seconds(year: 2013, month: 2, day: 29) == nil)
    #expect(Timestamp.seconds(year: 2016, month: 2, day: 29) != nil)
  }
}
