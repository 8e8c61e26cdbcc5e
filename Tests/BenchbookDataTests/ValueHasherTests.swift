import Testing

@testable import BenchbookData

/// The hash's arithmetic against values worked out apart from it (FNV-1a over 64-bit words, by Python's integers:
/// state = (state ^ word) * 0x100000001b3 mod 2^64 from 0xcbf29ce484222325, then state ^ state >> 29): the audit's
/// duplicate groups and the grouped logistic fit depend on equal rows hashing alike and on nothing else changing it.
@Suite struct ValueHasherTests {
  @Test func wordsCombineAsFNVOverWords() {
    var hasher = ValueHasher()
    for value in [1.5, -2.0, 0.0] { hasher.combine(value) }
    #expect(hasher.unfolded == 0xB155_1218_6C0F_2FB7)
    #expect(hasher.finalized == 0xB155_121D_E6A7_BF74)
  }

  @Test func emptyHashIsTheOffsetBasis() {
    let hasher = ValueHasher()
    #expect(hasher.unfolded == 0xCBF2_9CE4_8422_2325)
    #expect(hasher.finalized == 0xCBF2_9CE2_DBB6_C401)
  }

  @Test func seedIsXoredIntoTheBasis() {
    var hasher = ValueHasher(seed: 7)
    hasher.combine(3.25)
    #expect(hasher.unfolded == 0xF995_BA4C_8601_B2C6)
    var fromState = ValueHasher(state: 0xCBF2_9CE4_8422_2325 ^ 7)
    fromState.combine(bits: (3.25).bitPattern)
    #expect(fromState.unfolded == hasher.unfolded)
  }

  @Test func negativeZeroHashesAsZero() {
    var plus = ValueHasher()
    plus.combine(0.0)
    var minus = ValueHasher()
    minus.combine(-0.0)
    #expect(plus.finalized == minus.finalized)
  }

  @Test func orderMatters() {
    var forward = ValueHasher()
    forward.combine(1)
    forward.combine(2)
    var backward = ValueHasher()
    backward.combine(2)
    backward.combine(1)
    #expect(forward.finalized != backward.finalized)
  }
}
