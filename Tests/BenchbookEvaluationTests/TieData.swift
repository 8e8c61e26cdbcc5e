import BenchbookData
import Foundation

/// Small data with ties at every turn, for the tests that hold a shared path (one neighbour search over every row,
/// features sorted once, folds fitted in place) to the bits of separate fits: integer features `a`, `b`, `c` with
/// many repeated rows (zero distances and distance ties) and a class `y` of three classes (or `classes`, fewer),
/// written as `data.csv` in a folder of its own.
enum TieData {
  /// The spec lines that read the data.
  static let specHeader = """
    data: {path: data.csv}
    target: y
    features: [a, b, c]
    """

  /// Runs `body` with a new folder holding the data (`wide`: `wideCSV`'s), and removes the folder afterwards.
  static func withFolder<T>(
    rows: Int, seed: UInt64, classes: Int = 3, wide: Bool = false, _ body: (URL) throws -> T
  ) throws -> T {
    precondition(!wide || classes == 3, "the wide data have three classes")
    return try withFolder(
      csv: wide ? wideCSV(rows: rows, seed: seed) : csv(rows: rows, seed: seed, classes: classes), body)
  }

  /// Runs `body` with a new folder holding `csv` as `data.csv`, and removes the folder afterwards.
  static func withFolder<T>(csv: String, _ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("neighbor-pass-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try csv.write(to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
    return try body(folder)
  }

  /// The data as CSV text.
  private static func csv(rows: Int, seed: UInt64, classes: Int = 3) -> String {
    var generator = SeededGenerator(seed: seed)
    var text = "a,b,c,y\n"
    for _ in 0..<rows {
      let a = Int.random(in: 0...4, using: &generator)
      let b = Int.random(in: 0...3, using: &generator)
      let c = Int.random(in: 0...2, using: &generator)
      let y = (a + b + Int.random(in: 0...2, using: &generator)) % classes
      text += "\(a),\(b),\(c),\(["x", "y", "z"][y])\n"
    }
    return text
  }

  /// `csv` with a categorical column `g` of 20 levels: 23 columns once one-hot encoded, so `auto` takes
  /// brute force, with the same ties.
  private static func wideCSV(rows: Int, seed: UInt64) -> String {
    var generator = SeededGenerator(seed: seed + 1)
    let lines = csv(rows: rows, seed: seed).split(separator: "\n").enumerated().map { index, line in
      index == 0 ? line + ",g" : line + ",g\(Int.random(in: 0..<20, using: &generator))"
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
