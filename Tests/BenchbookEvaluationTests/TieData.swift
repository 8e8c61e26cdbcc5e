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

  /// Runs `body` with a new folder holding the data (`wide`: `writeWide`'s), and removes the folder afterwards.
  static func withFolder<T>(
    rows: Int, seed: UInt64, classes: Int = 3, wide: Bool = false, _ body: (URL) throws -> T
  ) throws -> T {
    precondition(!wide || classes == 3, "the wide data have three classes")
    let folder = try wide ? writeWide(rows: rows, seed: seed) : write(rows: rows, seed: seed, classes: classes)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
  }

  /// Runs `body` with a new folder holding `csv` as `data.csv`, and removes the folder afterwards.
  static func withFolder<T>(csv: String, _ body: (URL) throws -> T) throws -> T {
    let folder = try folder(holding: csv)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
  }

  /// A new folder holding `csv` as `data.csv`; the caller removes it.
  private static func folder(holding csv: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("neighbor-pass-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try csv.write(to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
    return folder
  }

  /// A new folder holding the data; the caller removes it.
  private static func write(rows: Int, seed: UInt64, classes: Int = 3) throws -> URL {
    var generator = SeededGenerator(seed: seed)
    var text = "a,b,c,y\n"
    for _ in 0..<rows {
      let a = Int.random(in: 0...4, using: &generator)
      let b = Int.random(in: 0...3, using: &generator)
      let c = Int.random(in: 0...2, using: &generator)
      let y = (a + b + Int.random(in: 0...2, using: &generator)) % classes
      text += "\(a),\(b),\(c),\(["x", "y", "z"][y])\n"
    }
    return try folder(holding: text)
  }

  /// `write` with a categorical column `g` of 20 levels: 23 columns once one-hot encoded, so `auto` takes
  /// brute force, with the same ties.
  private static func writeWide(rows: Int, seed: UInt64) throws -> URL {
    let folder = try write(rows: rows, seed: seed)
    let file = folder.appendingPathComponent("data.csv")
    var generator = SeededGenerator(seed: seed + 1)
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").enumerated().map { index, line in
      index == 0 ? line + ",g" : line + ",g\(Int.random(in: 0..<20, using: &generator))"
    }
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    return folder
  }
}
