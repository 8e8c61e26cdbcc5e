import Foundation

/// A time axis for gnuplot drawn in days since the first row, with date tics
/// written by Swift, so plots need none of gnuplot's time parsing and read the
/// same everywhere.
struct TimeAxis {
  let origin: Double
  let span: Double

  init(first: Double, last: Double) {
    origin = first
    span = max(last - first, 1)
  }

  /// Seconds since 1970 → days since the first row.
  func days(_ seconds: Double) -> Double { (seconds - origin) / 86400 }

  /// `set xrange` and about six date tics: month starts over spans of months, year starts over
  /// spans of years, evenly spaced times otherwise.
  var gnuplot: String {
    let totalDays = span / 86400
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = calendar.timeZone
    var marks: [Date] = []
    let start = Date(timeIntervalSince1970: origin)
    let end = Date(timeIntervalSince1970: origin + span)
    if totalDays >= 90 {
      let years = totalDays >= 3 * 365
      formatter.dateFormat = years ? "yyyy" : "yyyy-MM"
      let unit: Calendar.Component = years ? .year : .month
      let count = years ? totalDays / 365.25 : totalDays / 30.44
      let step = max(1, Int((count / 6).rounded(.up)))
      var parts = calendar.dateComponents([.year, .month], from: start)
      if years { parts.month = 1 }
      parts.day = 1
      var mark = calendar.date(from: parts) ?? start
      while mark <= end {
        if mark.timeIntervalSince(start) >= -0.01 * span { marks.append(mark) }
        mark = calendar.date(byAdding: unit, value: step, to: mark) ?? end.addingTimeInterval(1)
      }
    } else {
      formatter.dateFormat = totalDays > 3 ? "yyyy-MM-dd" : "MM-dd HH:mm"
      let step = max(span / 6, 3600)
      var offset = 0.0
      while offset <= span + 1e-6 {
        marks.append(start.addingTimeInterval(offset))
        offset += step
      }
    }
    let tics = marks.map { "\(GnuplotScript.quoted(formatter.string(from: $0))) \(days($0.timeIntervalSince1970))" }
    return """
      set xrange [\(-totalDays * 0.01):\(totalDays * 1.01)]
      set xtics (\(tics.joined(separator: ", ")))

      """
  }
}
