/// The physical CSV line of each record, for error messages and audit evidence.
///
/// Stored as runs of consecutive lines: a record's line is the line its run starts on plus its place in
/// the run, and a new run starts only where a record does not follow on the next line (a dropped row, a
/// quoted field spanning lines). A file without such breaks takes a few bytes in all instead of eight a
/// record; when breaks are frequent (more than one record in four starts a run), the lines are kept one
/// by one instead, so the worst case costs what a plain array does. The choice is made as records come and is
/// kept: a file whose first records all span lines stays one number a record, as a plain array.
public struct LineNumbers: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
  private enum Storage: Equatable, Sendable {
    /// `starts[i]` is the first record of run i, and `lines[i]` its line; `starts` ascends from 0.
    case runs(starts: [Int], lines: [Int])
    case each([Int])
  }

  private var storage: Storage = .runs(starts: [], lines: [])
  public private(set) var count = 0

  public init() {}

  public init(arrayLiteral lines: Int...) { self.init(lines) }

  public init<S: Sequence<Int>>(_ lines: S) {
    for line in lines { append(line) }
  }

  /// Integers held: two a run, or one a record when kept one by one (what the memory tests check).
  public var storedIntegers: Int {
    switch storage {
    case .runs(let starts, let lines): starts.count + lines.count
    case .each(let lines): lines.count
    }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public subscript(record: Int) -> Int {
    precondition(record >= 0 && record < count, "record \(record) outside 0..<\(count)")
    switch storage {
    case .each(let lines): return lines[record]
    case .runs(let starts, let lines):
      let run = Self.run(containing: record, starts: starts)
      return lines[run] + (record - starts[run])
    }
  }

  /// Adds the next record's line.
  public mutating func append(_ line: Int) {
    defer { count += 1 }
    switch storage {
    case .each(var lines):
      storage = .runs(starts: [], lines: [])  // lets `lines` be appended to in place
      lines.append(line)
      storage = .each(lines)
    case .runs(var starts, var lines):
      if let last = starts.last, line == lines[lines.count - 1] + (count - last) { return }
      storage = .runs(starts: [], lines: [])
      starts.append(count)
      lines.append(line)
      // Frequent breaks: one by one is smaller than two numbers a run.
      if starts.count > 64 && 4 * starts.count > count + 1 {
        storage = .each(Array(self.runsExpanded(starts: starts, lines: lines, count: count + 1)))
      } else {
        storage = .runs(starts: starts, lines: lines)
      }
    }
  }

  /// The lines of `records`, which ascend: one pass over the runs rather than a search for each.
  public func selecting(ascending records: [Int]) -> LineNumbers {
    var selected = LineNumbers()
    switch storage {
    case .each(let lines):
      for record in records { selected.append(lines[record]) }
    case .runs(let starts, let lines):
      var run = 0
      for record in records {
        precondition(record >= 0 && record < count, "record \(record) outside 0..<\(count)")
        while run + 1 < starts.count && starts[run + 1] <= record { run += 1 }
        if starts[run] > record { run = Self.run(containing: record, starts: starts) }
        selected.append(lines[run] + (record - starts[run]))
      }
    }
    return selected
  }

  /// Equal when they list the same lines.
  public static func == (a: LineNumbers, b: LineNumbers) -> Bool {
    a.count == b.count && a.elementsEqual(b)
  }

  private func runsExpanded(starts: [Int], lines: [Int], count: Int) -> [Int] {
    var out: [Int] = []
    out.reserveCapacity(count)
    for run in starts.indices {
      let end = run + 1 < starts.count ? starts[run + 1] : count
      for record in starts[run]..<end { out.append(lines[run] + (record - starts[run])) }
    }
    return out
  }

  /// The last run starting at or before `record` (binary search).
  private static func run(containing record: Int, starts: [Int]) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= record { low = middle } else { high = middle - 1 }
    }
    return low
  }
}
