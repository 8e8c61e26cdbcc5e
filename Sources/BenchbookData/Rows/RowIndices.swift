/// A fold's row indices, stored compactly: a k-fold's training rows are every
/// row its test rows are not, so they are kept as that complement and never
/// listed; lists take 4 bytes a row and may share one array (a time-series
/// plan's folds are slices of one time order).
///
/// The indices read as a plain collection of `Int` in the order models see
/// them, so code that walks a fold is unchanged; only the memory differs (ten
/// folds of a million rows listed as `[Int]` would hold 80 MB, and a tuned
/// model's fifty inner folds five times that).
public struct RowIndices: RandomAccessCollection, Sendable, Hashable, Codable {
  indirect enum Storage: Sendable {
    /// These consecutive rows.
    case range(Range<Int>)
    /// These rows, in this order.
    case list(ArraySlice<Int32>)
    /// The rows of `base` except those at `positions` (ascending, no repeats), in `base`'s order.
    case except(positions: [Int32], base: RowIndices)
  }

  let storage: Storage
  public let count: Int

  /// Whether these are the rows `0..<count` in order, so that a position among them is a row.
  public var isLeadingRange: Bool {
    if case .range(let rows) = storage { return rows.lowerBound == 0 }
    return false
  }

  /// These rows, in this order.
  public init<C: Collection<Int>>(_ rows: C) {
    precondition(rows.allSatisfy { $0 >= 0 && $0 <= Int(Int32.max) }, "row index outside 0...Int32.max")
    self.init(list: ArraySlice(rows.map { Int32(truncatingIfNeeded: $0) }))
  }

  /// A slice of a list that other folds may share.
  public init(list: ArraySlice<Int32>) {
    storage = .list(list)
    count = list.count
  }

  /// Rows `0..<rowCount`.
  public init(all rowCount: Int) {
    storage = .range(0..<rowCount)
    count = rowCount
  }

  /// The rows of `base` but those at `positions`, in `base`'s order.
  /// - Parameter positions: positions into `base`, ascending, without repeats.
  public init(_ base: RowIndices, except positions: [Int32]) {
    storage = .except(positions: positions, base: base)
    count = base.count - positions.count
  }

  /// How many indices this value itself holds in memory (a slice counts its own rows, a shared base is counted
  /// once per holder): what the compact storage saves, made visible to tests.
  public var storedIndexCount: Int {
    switch storage {
    case .range: 0
    case .list(let rows): rows.count
    case .except(let positions, let base): positions.count + base.storedIndexCount
    }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public subscript(position: Int) -> Int {
    precondition(position >= 0 && position < count, "position \(position) outside 0..<\(count)")
    switch storage {
    case .range(let rows):
      return rows.lowerBound + position
    case .list(let rows):
      return Int(rows[rows.startIndex + position])
    case .except(let positions, let base):
      // Before positions[j] lie positions[j] - j kept rows: count the excluded positions whose gap is at most `position`.
      var low = 0
      var high = positions.count
      while low < high {
        let middle = (low + high) / 2
        if Int(positions[middle]) - middle <= position { low = middle + 1 } else { high = middle }
      }
      return base[position + low]
    }
  }

  public func makeIterator() -> Iterator { Iterator(storage: storage) }

  /// Calls `body` with the rows as maximal runs of consecutive rows, in order. A k-fold's training rows are
  /// two runs and an inner fold's a few dozen, so gathering them (`Matrix.selecting(rows:)`) copies runs
  /// instead of walking rows one at a time.
  public func forEachRun(_ body: (Range<Int>) -> Void) {
    switch storage {
    case .range(let rows):
      if !rows.isEmpty { body(rows) }
    case .list(let rows):
      var i = rows.startIndex
      while i < rows.endIndex {
        let start = Int(rows[i])
        var end = start + 1
        i += 1
        while i < rows.endIndex && Int(rows[i]) == end {
          end += 1
          i += 1
        }
        body(start..<end)
      }
    case .except(let positions, let base):
      // The base's runs, cut at the excluded positions; `position` is the base position of a run's first row.
      var position = 0
      var skip = 0
      base.forEachRun { run in
        var start = run.lowerBound
        let endPosition = position + run.count
        while skip < positions.count && Int(positions[skip]) < endPosition {
          let excluded = run.lowerBound + Int(positions[skip]) - position
          if excluded > start { body(start..<excluded) }
          start = excluded + 1
          skip += 1
        }
        if start < run.upperBound { body(start..<run.upperBound) }
        position = endPosition
      }
    }
  }

  /// Calls `body` with each row in order, a run at a time: several times faster than `for row in rows`, whose
  /// iterator switches on the storage at every row.
  @inline(__always)
  public func forEachRow(_ body: (Int) -> Void) {
    forEachRun { run in for row in run { body(row) } }
  }

  /// Whether every row is greater than the one before it: checked a run at a time (`forEachRun`), since the
  /// runs are ascending within themselves, so a k-fold's training rows take two comparisons, not one per row.
  public var isAscending: Bool {
    var least = 0
    var ascending = true
    forEachRun { run in
      if run.lowerBound < least { ascending = false }
      least = run.upperBound
    }
    return ascending
  }

  /// The same rows in ascending order, found by marking them in a bit set over `rowCount` rows: O(rowCount),
  /// with no sort. Rows taken in time order from a file that is not become runs again, which
  /// `Matrix.selecting(rows:)` copies whole instead of one row at a time.
  public func ascending(rowCount: Int) -> RowIndices {
    var bits = RowBitSet(count: rowCount)
    forEachRun { run in
      for row in run { bits.insert(row) }
    }
    var rows = [Int32]()
    rows.reserveCapacity(count)
    bits.forEach { rows.append(Int32($0)) }
    return RowIndices(list: rows[...])
  }

  /// Walks the rows in order in O(1) each: an `except` walks its base's own iterator in step and drops the
  /// excluded positions, where a subscript would search for each row.
  public struct Iterator: IteratorProtocol {
    let storage: Storage
    var position = 0
    var skip = 0
    /// The base's iterator, once an `except` starts (an array, since an iterator cannot hold its own type inline).
    var base: [Iterator] = []

    public mutating func next() -> Int? {
      switch storage {
      case .range(let rows):
        guard position < rows.count else { return nil }
        defer { position += 1 }
        return rows.lowerBound + position
      case .list(let rows):
        guard position < rows.count else { return nil }
        defer { position += 1 }
        return Int(rows[rows.startIndex + position])
      case .except(let positions, let rows):
        if base.isEmpty { base = [rows.makeIterator()] }
        while skip < positions.count && Int(positions[skip]) == position {
          _ = base[0].next()
          skip += 1
          position += 1
        }
        position += 1
        return base[0].next()
      }
    }
  }

  /// The rows transformed in order, walked by the iterator (the standard `map` would subscript each position).
  public func map<T, E: Error>(_ transform: (Int) throws(E) -> T) throws(E) -> [T] {
    var result: [T] = []
    result.reserveCapacity(count)
    for row in self { result.append(try transform(row)) }
    return result
  }

  /// `values` at these rows, in order, where row r is the `width` values from `r * width` (1: one value a row, a
  /// matrix's column count for its row-major values), copied a run of consecutive rows at a time into memory sized
  /// once: a shuffled fold's runs are single rows, and a slice appended per row cost a retain, a release and a
  /// generic append each, a noticeable share of the screens' work.
  /// - Parameter room: capacity for this many more values a row, left unused (`Matrix.selecting(rows:roomForColumns:)`).
  public func gathering<T>(_ values: [T], width: Int = 1, room: Int = 0) -> [T] {
    precondition(width >= 0, "a row is at least 0 values wide")
    return values.withUnsafeBufferPointer { source in
      [T](unsafeUninitializedCapacity: count * (width + room)) { out, initialized in
        var filled = 0
        forEachRun { run in
          precondition(
            run.upperBound * width <= source.count,
            "row \(run.upperBound - 1) outside 0..<\(source.count / Swift.max(width, 1))")
          guard width > 0 else { return }
          (out.baseAddress! + filled).initialize(
            from: source.baseAddress! + run.lowerBound * width, count: run.count * width)
          filled += run.count * width
        }
        initialized = filled
      }
    }
  }

  public static func == (a: RowIndices, b: RowIndices) -> Bool { a.elementsEqual(b) }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for row in self { hasher.combine(row) }
  }

  /// Encoded as a plain list of integers, as a fold's rows always were.
  public init(from decoder: any Decoder) throws {
    self.init(try [Int](from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try map { $0 }.encode(to: encoder)
  }
}

extension RowIndices: ExpressibleByArrayLiteral {
  public init(arrayLiteral rows: Int...) { self.init(rows) }
}

extension Matrix {
  /// The rows of a fold, in its order, copied a run of consecutive rows at a time (`RowIndices.forEachRun`).
  /// - Parameter room: as in `selecting(rows:roomForColumns:)` for any collection of rows.
  public func selecting(rows indices: RowIndices, roomForColumns room: Int = 0) -> Matrix {
    Matrix(rows: indices.count, columns: columns, values: indices.gathering(values, width: columns, room: room))
  }
}
