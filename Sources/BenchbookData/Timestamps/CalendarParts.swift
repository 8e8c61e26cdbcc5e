/// A moment broken into UTC calendar fields, numbered the way pandas' `.dt`
/// accessors number them (so derived features match a pandas pipeline).
public struct CalendarParts: Sendable, Hashable, CustomStringConvertible {
  public var year: Int
  /// 1 (January) to 12.
  public var month: Int
  /// 1 to 31.
  public var day: Int
  /// Monday = 0 … Sunday = 6, like `Series.dt.weekday`.
  public var weekday: Int
  public var hour: Int
  public var minute: Int
  public var second: Int

  public init(year: Int, month: Int, day: Int, weekday: Int, hour: Int, minute: Int, second: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.weekday = weekday
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  public var description: String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
  }
}
