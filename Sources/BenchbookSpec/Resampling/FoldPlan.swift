import BenchbookData

/// Every fold of an experiment, computed once by its resampling method (`ResamplingMethod.plan`) and shared by all
/// models so the comparison is paired: each model is scored on exactly the same rows.
public struct FoldPlan: Sendable {
  public var folds: [Fold]
  /// Number of repeats (1 unless repeated k-fold).
  public var repeats: Int
  /// Time-series splits: every row in time order, of which each fold's rows are slices.
  public var rowsInTime: [Int32]?
  /// What about the split deserves a look but is no error (scikit-learn's warnings), located at the spec's key;
  /// `run` prints each.
  public var warnings: [String] = []

  public init(folds: [Fold], repeats: Int = 1, rowsInTime: [Int32]? = nil) {
    self.folds = folds
    self.repeats = repeats
    self.rowsInTime = rowsInTime
  }

  /// An error at the spec's `folds` (or the spec file, when it gives none): the data cannot be split so.
  static func foldsError(_ message: String, at location: SourceLocation?, specPath: String) -> SpecError {
    SpecError(message, at: location ?? SourceLocation(file: specPath), key: "resampling.folds")
  }

  /// An error at the spec's `test_size` (or where its default was chosen, else the spec file).
  static func testSizeError(_ message: String, at location: SourceLocation?, specPath: String) -> SpecError {
    SpecError(message, at: location ?? SourceLocation(file: specPath), key: "resampling.test_size")
  }

  /// `a × b`, or `Int.max` when that overflows.
  static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? Int.max : product
  }

  /// scikit-learn's `TimeSeriesSplit` cut of rows already in time order: fold `i` tests the `i`-th of the last `k`
  /// blocks of `testSize` rows and trains on the rows before it (less `gap`, at most `maxTrainSize`). Every fold is a
  /// slice of the one `rowsInTime` array.
  static func forwardChaining(_ rowsInTime: [Int32], k: Int, testSize: Int, gap: Int = 0, maxTrainSize: Int? = nil)
    -> [Fold]
  {
    let n = rowsInTime.count
    return (0..<k).map { i in
      let testStart = n - (k - i) * testSize
      let trainEnd = testStart - gap
      let trainStart = maxTrainSize.map { max(0, trainEnd - $0) } ?? 0
      return Fold(
        index: i, train: RowIndices(list: rowsInTime[trainStart..<trainEnd]),
        test: RowIndices(list: rowsInTime[testStart..<(testStart + testSize)]))
    }
  }

  /// scikit-learn's `KFold` cut: the first `n mod k` folds get one extra row.
  /// Row indices come back ascending, as scikit-learn's boolean masks give them.
  static func contiguousFolds(order: [Int], k: Int, firstIndex: Int, repeatIndex: Int, of base: RowIndices? = nil)
    -> [Fold]
  {
    let n = order.count
    var assignment = [Int](repeating: 0, count: n)
    var start = 0
    for fold in 0..<k {
      let size = n / k + (fold < n % k ? 1 : 0)
      for position in start..<(start + size) { assignment[order[position]] = fold }
      start += size
    }
    return foldsFromAssignment(assignment, k: k, of: base).map {
      Fold(index: firstIndex + $0.index, repeatIndex: repeatIndex, train: $0.train, test: $0.test)
    }
  }

  /// Each fold's test rows ascending, and its training rows as their complement (never listed).
  /// - Parameter base: the rows being split; the folds hold `base[position]` for each position assigned.
  public static func foldsFromAssignment(_ assignment: [Int], k: Int, of base: RowIndices? = nil) -> [Fold] {
    precondition(assignment.count <= Int(Int32.max), "more rows than 32-bit row indices hold")
    // Each fold's positions in one flat buffer, a fold's after the one before (tuning cuts eleven sets of inner
    // folds from a flagship's 300,000 rows, where an append per row to an array per fold is slow).
    var offsets = [Int](repeating: 0, count: k + 1)
    for fold in assignment { offsets[fold + 1] += 1 }
    for fold in 0..<k { offsets[fold + 1] += offsets[fold] }
    func grouped(_ value: (Int) -> Int32) -> [Int32] {
      var next = offsets
      return [Int32](unsafeUninitializedCapacity: assignment.count) { buffer, initialized in
        for (position, fold) in assignment.enumerated() {
          buffer[next[fold]] = value(position)
          next[fold] += 1
        }
        initialized = assignment.count
      }
    }
    let tests = grouped { Int32(truncatingIfNeeded: $0) }
    let base = base ?? RowIndices(all: assignment.count)
    // Each fold's test rows as rows of the data: one walk over `base` serves every fold.
    var testRows = tests
    if !base.isLeadingRange {  // else positions are rows
      var rows = [Int32]()
      rows.reserveCapacity(assignment.count)
      base.forEachRow { rows.append(Int32(truncatingIfNeeded: $0)) }
      testRows = grouped { rows[$0] }
    }
    return (0..<k).map { fold in
      let range = offsets[fold]..<offsets[fold + 1]
      return Fold(
        index: fold, train: RowIndices(base, except: Array(tests[range])), test: RowIndices(list: testRows[range]))
    }
  }

  /// scikit-learn's `StratifiedKFold` allocation: classes are numbered by first
  /// appearance, the sorted label list is dealt round-robin to the folds, and
  /// each class's rows take their folds in row order (shuffled when asked).
  /// - Parameter labels: class indices (a dataset's labels), so not negative.
  static func stratifiedAssignment(labels: [Int], k: Int, generator: inout SeededGenerator?) -> [Int] {
    var encoding = [Int](repeating: -1, count: (labels.max() ?? -1) + 1)
    var classCount = 0
    var encoded = [Int](repeating: 0, count: labels.count)
    for (row, label) in labels.enumerated() {
      if encoding[label] < 0 {
        encoding[label] = classCount
        classCount += 1
      }
      encoded[row] = encoding[label]
    }
    var counts = [Int](repeating: 0, count: classCount)
    for c in encoded { counts[c] += 1 }
    // The sorted labels (each class's rows together, classes in order) dealt round-robin: position p goes to fold
    // p mod k. allocation[fold · classCount + c] counts class c's positions dealt to the fold.
    var allocation = [Int](repeating: 0, count: k * classCount)
    var position = 0
    for c in 0..<classCount {
      for _ in 0..<counts[c] {
        allocation[(position % k) * classCount + c] += 1
        position += 1
      }
    }

    var assignment = [Int](repeating: 0, count: labels.count)
    guard generator != nil else {
      // Each class's rows take its folds in row order: fold 0 as often as it was dealt the class, then fold 1, …
      var fold = [Int](repeating: -1, count: classCount)
      var left = [Int](repeating: 0, count: classCount)
      for (row, c) in encoded.enumerated() {
        while left[c] == 0 {
          fold[c] += 1
          left[c] = allocation[fold[c] * classCount + c]
        }
        assignment[row] = fold[c]
        left[c] -= 1
      }
      return assignment
    }
    var rowsOfClass = [[Int]](repeating: [], count: classCount)
    for (row, c) in encoded.enumerated() { rowsOfClass[c].append(row) }
    for c in 0..<classCount {
      var foldsForClass = (0..<k).flatMap { fold in [Int](repeating: fold, count: allocation[fold * classCount + c]) }
      generator!.shuffle(&foldsForClass)
      for (row, fold) in zip(rowsOfClass[c], foldsForClass) { assignment[row] = fold }
    }
    return assignment
  }
}

extension FoldPlan {
  /// SHA-256 of the fold assignment: every fold's repeat, index and test rows, as the text
  /// "repeat index:row,row,…" a line per fold. The text is written as bytes and hashed a block at a time, never
  /// held whole. A run of consecutive rows counts its decimal digits up in place instead of dividing each row
  /// by ten: the results wait on this digest, which on a large file's folds would otherwise be a visible delay.
  public var sha256: String {
    var hasher = SHA256()
    var text = [UInt8]()
    text.reserveCapacity(1 << 16)
    // One buffer for every number's digits, so a shuffled plan's runs of a row or two allocate nothing.
    var digits: [UInt8] = []
    digits.reserveCapacity(20)
    for fold in folds {
      Self.decimal(fold.repeatIndex, into: &digits)
      text.append(contentsOf: digits)
      text.append(UInt8(ascii: " "))
      Self.decimal(fold.index, into: &digits)
      text.append(contentsOf: digits)
      text.append(UInt8(ascii: ":"))
      var first = true
      fold.test.forEachRun { run in
        Self.decimal(run.lowerBound, into: &digits)
        for _ in run {
          if !first { text.append(UInt8(ascii: ",")) }
          first = false
          text.append(contentsOf: digits)
          Self.countUp(&digits)
          if text.count >= 1 << 16 {
            hasher.update(text)
            text.removeAll(keepingCapacity: true)
          }
        }
      }
      text.append(UInt8(ascii: "\n"))
    }
    hasher.update(text)
    return SHA256.hex(hasher.finalize())
  }

  /// Replaces `digits` with `number`'s decimal digits, as ASCII.
  static func decimal(_ number: Int, into digits: inout [UInt8]) {
    precondition(number >= 0, "rows and fold numbers are not negative")
    digits.removeAll(keepingCapacity: true)
    var rest = number
    repeat {
      digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    digits.reverse()
  }

  /// Adds one to the decimal number `digits` spells: 129 → 130, 999 → 1000.
  static func countUp(_ digits: inout [UInt8]) {
    var i = digits.count - 1
    while i >= 0 && digits[i] == UInt8(ascii: "9") {
      digits[i] = UInt8(ascii: "0")
      i -= 1
    }
    if i >= 0 { digits[i] += 1 } else { digits.insert(UInt8(ascii: "1"), at: 0) }
  }
}
