import BenchbookData
import Foundation
import Testing

/// Vectors from FIPS 180-4's examples (NIST CSRC "SHA256.pdf") and the
/// `sha256sum` output committed in `Fixtures/SHA256SUMS`.
@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func knownVectors(message: String, digest: String) {
    #expect(SHA256.hexDigest(message) == digest)
    #expect(SHA256.hexDigest(Array(message.utf8)) == digest)
  }

  @Test func millionAs() {
    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(SHA256.hexDigest(bytes) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Padding changes shape at 55/56 and 63/64 bytes; feeding in pieces must
  /// not matter.
  @Test func incrementalUpdatesMatchOneShot() {
    let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300] {
      let whole = SHA256.digest(Array(message.prefix(length)))
      for split in [0, 1, 13, 64, length / 2, length] where split <= length {
        var hasher = SHA256()
        hasher.update(Array(message[0..<split]))
        hasher.update(Array(message[split..<length]))
        #expect(hasher.finalize() == whole, "length \(length), split \(split)")
      }
    }
    #expect(SHA256.digest([]).count == 32)
  }

  @Test func matchesSha256sumOfFixtures() throws {
    let sums = try String(contentsOfFile: Fixtures.path("SHA256SUMS"), encoding: .utf8)
    var checked = 0
    for line in sums.split(separator: "\n") {
      let parts = line.split(separator: " ", omittingEmptySubsequences: true)
      let bytes = try DataFile.storedBytes(atPath: Fixtures.path(String(parts[1])))
      #expect(SHA256.hexDigest(bytes) == String(parts[0]), "\(parts[1])")
      checked += 1
    }
    #expect(checked == 3)
  }
}
