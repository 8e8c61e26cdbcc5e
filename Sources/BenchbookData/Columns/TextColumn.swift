/// One CSV column's raw text, all cells in one byte buffer with an end offset
/// per cell: two allocations per column instead of one per cell.
public struct TextColumn: Sendable {
  /// The header name.
  public let name: String
  /// UTF-8 of every cell, back to back, quotes already removed.
  private let bytes: OwnedBuffer<UInt8>
  /// `ends[i]` is where cell `i` stops in `bytes`; it starts where `i - 1` stopped.
  private let ends: OwnedBuffer<UInt32>

  init(name: String, bytes: OwnedBuffer<UInt8>, ends: OwnedBuffer<UInt32>) {
    self.name = name
    self.bytes = bytes
    self.ends = ends
  }

  /// Number of cells (data rows).
  public var count: Int { ends.elements.count }

  /// The text of one cell, as written (quotes removed, `""` unescaped).
  public subscript(row: Int) -> String {
    precondition(row >= 0 && row < count, "row \(row) outside 0..<\(count)")
    return String(decoding: cells[row], as: UTF8.self)
  }

  /// Every cell as a string; convenient for tests and small files.
  public var values: [String] { (0..<count).map { self[$0] } }

  /// Cheap access to every cell without copying. The view borrows this
  /// column's memory: use it only while the column is alive.
  var cells: CellView { CellView(bytes: bytes.elements, ends: ends.elements) }

  /// Runs `body` with the cells while keeping the column alive.
  func withCells<R, E: Error>(_ body: (CellView) throws(E) -> R) throws(E) -> R {
    try withExtendedLifetime(self) { () throws(E) -> R in try body(cells) }
  }
}

/// Borrowed access to a `TextColumn`'s cells.
struct CellView {
  let bytes: UnsafeBufferPointer<UInt8>
  let ends: UnsafeBufferPointer<UInt32>

  var count: Int { ends.count }

  @inline(__always)
  subscript(row: Int) -> UnsafeBufferPointer<UInt8> {
    let start = row == 0 ? 0 : Int(ends[row - 1])
    let end = Int(ends[row])
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }
}
