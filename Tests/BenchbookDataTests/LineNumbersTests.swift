import BenchbookData
import Testing

@Suite struct LineNumbersTests {
  /// Lines from 2 with a gap of `gap(record)` extra lines before each record.
  static func lines(count: Int, gap: (Int) -> Int) -> [Int] {
    var line = 1
    return (0..<count).map { record in
      line += 1 + gap(record)
      return line
    }
  }

  @Test func consecutiveLinesTakeOneRun() {
    let plain = Self.lines(count: 10_000) { _ in 0 }
    let lines = LineNumbers(plain)
    #expect(lines.count == 10_000)
    #expect(Array(lines) == plain)
    #expect(lines[0] == 2 && lines[9_999] == 10_001)
    #expect(lines.storedIntegers == 2)
  }

  @Test(arguments: [7, 50, 3, 1])
  func breaksEveryFewRecordsReadBackExactly(every: Int) {
    let plain = Self.lines(count: 5_000) { $0 % every == 0 ? 1 + $0 % 3 : 0 }
    let lines = LineNumbers(plain)
    #expect(Array(lines) == plain)
    #expect(lines.indices == plain.indices)
    for record in stride(from: 0, to: plain.count, by: 37) { #expect(lines[record] == plain[record]) }
    // Never more than a plain array's integers, and far fewer when breaks are rare.
    #expect(lines.storedIntegers <= plain.count)
    if every >= 7 { #expect(lines.storedIntegers <= 2 * (plain.count / every + 1)) }
  }

  @Test func selectingAscendingRecordsEqualsLookingEachUp() {
    let plain = Self.lines(count: 3_000) { $0 % 11 == 0 ? 2 : 0 }
    let lines = LineNumbers(plain)
    var generator = SplitMix(seed: 5)
    let records = (0..<plain.count).filter { _ in generator.next() % 3 != 0 }
    let selected = lines.selecting(ascending: records)
    #expect(Array(selected) == records.map { plain[$0] })
    #expect(lines.selecting(ascending: []).isEmpty)
    let dense = LineNumbers(Self.lines(count: 3_000) { $0 % 2 })
    #expect(Array(dense.selecting(ascending: records)) == records.map { Array(dense)[$0] })
  }

  /// Equal when they list the same lines (a selection of every record included), unequal otherwise.
  @Test func equalWhenTheLinesAre() {
    let plain = Self.lines(count: 400) { $0 % 2 }
    let built = LineNumbers(plain)
    #expect(built == LineNumbers(plain))
    #expect(built.selecting(ascending: Array(0..<400)) == built)
    #expect(LineNumbers([2, 3, 5]) != LineNumbers([2, 3, 4]))
    #expect(LineNumbers([2, 3]) != LineNumbers([2, 3, 4]))
    #expect(LineNumbers() == [])
  }
}

/// A tiny deterministic generator for the record choice above.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
