import BenchbookData
import Foundation
import Testing

/// Declared timestamp formats against Python's `datetime.strptime` (`Fixtures/make_strptime_goldens.py` made
/// `strptime-goldens.json`), then the deliberate differences, the messages and the format errors.
@Suite struct TimestampFormatTests {
  struct Goldens: Decodable {
    struct Case: Decodable {
      var format: String
      var text: String
      var seconds: Double?
    }
    var cases: [Case]
  }

  static let goldens: [Goldens.Case] = {
    let data = try! Data(contentsOf: URL(fileURLWithPath: Fixtures.path("strptime-goldens.json")))
    return try! JSONDecoder().decode(Goldens.self, from: data).cases
  }()

  @Test func agreesWithStrptime() throws {
    #expect(Self.goldens.count > 80)
    for golden in Self.goldens {
      let format = try TimestampFormat(golden.format)
      let seconds = format.seconds(golden.text)
      #expect(seconds == golden.seconds, "'\(golden.text)' under '\(golden.format)'")
      // A refused text always has a reason; an accepted one never.
      #expect((format.mismatch(golden.text) == nil) == (golden.seconds != nil), "'\(golden.text)'")
    }
  }

  /// Every directive appears in the goldens, so none goes untested against strptime.
  @Test func goldensCoverEveryDirective() {
    let formats = Self.goldens.map(\.format).joined()
    for directive in [
      "%Y", "%y", "%m", "%b", "%B", "%d", "%j", "%H", "%I", "%p", "%M", "%S", "%f", "%z", "%a", "%A", "%%",
    ] {
      #expect(formats.contains(directive), "\(directive)")
    }
  }

  /// Where Benchbook reads more than strptime, on purpose.
  @Test func deliberateDifferences() throws {
    // Spaces around a cell are ignored, as for ISO timestamps.
    #expect(try TimestampFormat("%Y/%m/%d").seconds(" 2012/01/01 ") == 1_325_376_000)
    // %b and %B each read both the full and the abbreviated name.
    #expect(try TimestampFormat("%d %b %Y").seconds("5 January 2012") == 1_325_721_600)
    #expect(try TimestampFormat("%d %B %Y").seconds("5 Jan 2012") == 1_325_721_600)
    // Up to 9 digits of a fraction (nanoseconds).
    #expect(try TimestampFormat("%Y-%m-%d %H:%M:%S.%f").seconds("1970-01-01 00:00:00.000000001") == 1e-9)
    // An offset of whole hours.
    #expect(try TimestampFormat("%Y-%m-%d %H%z").seconds("2013-01-01 10+02") == 1_357_027_200)
    // No leap seconds, and no day of the year beyond the year's end.
    #expect(try TimestampFormat("%H:%M:%S").seconds("10:00:60") == nil)
    #expect(try TimestampFormat("%Y-%j").seconds("2013-366") == nil)
  }

  @Test func fieldsLeftOutDefaultToPythonsDate() throws {
    // 1900-01-01, as strptime and pandas fill them.
    #expect(try TimestampFormat("%H:%M").seconds("10:30") == -2_208_988_800 + 37_800)
    #expect(try TimestampFormat("%Y").seconds("1970") == 0)
  }

  @Test(arguments: [
    ("%Y/%m/%d", "2012-01-01", "expected '/' at character 5 ('-')"),
    ("%Y/%m/%d", "2012/13/01", "month 13 is not 1 to 12 (%m) at character 6"),
    ("%Y/%m/%d", "2013/02/29", "February 2013 has no day 29"),
    ("%Y/%m/%d", "12/01/01", "expected a four-digit year (%Y) at character 1 ('1')"),
    ("%Y/%m/%d", "2012/01/01x", "unexpected text at character 11 ('x') after the format's last field"),
    ("%Y/%m/%d", "2012/01", "expected '/' at the end"),
    ("%d %b %Y", "5 Jna 2012", "expected an English month name (%b) at character 3 ('J')"),
    ("%I:%M %p", "10:00 XM", "expected AM or PM (%p) at character 7 ('X')"),
    ("%H:%M%z", "10:00+0960", "expected an offset from UTC such as +01:00, -0500 or Z (%z) at character 6 ('+')"),
    ("%Y-%j", "2013-366", "2013 has no day 366 (%j)"),
    ("%Y %m", "2012  x", "expected a month number (%m) at character 7 ('x')"),
  ])
  func mismatchesSayWhereAndWhy(format: String, text: String, reason: String) throws {
    #expect(try TimestampFormat(format).mismatch(text) == reason)
  }

  @Test(arguments: [
    ("%Q", "unknown directive '%Q'"),
    ("%Y/%", "lone '%'"),
    ("%Y-%m-%Y", "'%Y' appears twice"),
    ("%m %b", "gives the month twice (%m, %b)"),
    ("%Y %y", "gives the year twice"),
    ("%Y-%j-%d", "day of the year (%j) and a month"),
    ("%H %I %p", "gives the hour twice"),
    ("%I:%M", "12-hour clock (%I) without AM or PM"),
    ("%H %p", "(%p) without a 12-hour clock"),
    ("", "the format is empty"),
  ])
  func formatErrors(format: String, fragment: String) {
    do {
      _ = try TimestampFormat(format)
      Issue.record("'\(format)' compiled")
    } catch {
      #expect(error.message.contains(fragment), "\(error.message)")
    }
  }
}
