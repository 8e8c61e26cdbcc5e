import BenchbookData
import Testing

/// The streaming reader must give what the whole-file reader gives, wherever its chunks end: tiny
/// windows and blocks put a boundary inside every field, quote, line break and gzip member.
@Suite struct CSVStreamTests {
  let files = TemporaryFiles()

  private func whole(_ bytes: [UInt8], path: String) throws(DataError) -> CSVTable {
    let reader = try CSVReader(bytes: bytes, path: path)
    return try reader.read(columns: reader.header)
  }

  private func streamed(_ path: String, window: Int, block: Int) throws(DataError) -> (CSVTable, String) {
    let stream = try CSVStream(path: path, windowBytes: window, blockBytes: block)
    let table = try stream.readText(columns: stream.header)
    return (table, try stream.sha256())
  }

  private func expectSame(_ a: CSVTable, _ b: CSVTable, _ comment: Comment) {
    #expect(a.header == b.header, comment)
    #expect(a.lineNumbers == b.lineNumbers, comment)
    #expect(a.columns.map(\.values) == b.columns.map(\.values), comment)
  }

  @Test func chunkBoundariesAnywhereGiveTheSameTable() throws {
    let text =
      "\u{FEFF}id,note,x\r\n1,\"a, b\",2.5\r\n2,\"two\nlines\",\r\n3,\"say \"\"hi\"\"\",-1\r\n"
      + "4,\"\"\"\",1e3\n5,,\n6,\"crlf\r\ninside\",7\n\n\n"
    let path = files.write(text)
    let stored = Array(text.utf8)
    let expected = try whole(stored, path: path)
    for window in 1...24 {
      for block in [1, 3, 64] {
        let (table, sha) = try streamed(path, window: window, block: block)
        expectSame(table, expected, "window \(window), block \(block)")
        #expect(sha == SHA256.hexDigest(stored))
      }
    }
  }

  @Test func gzipMembersStreamInSmallBlocks() throws {
    for name in ["small.csv.gz", "multi-member.csv.gz", "multi-member-large.csv.gz"] {
      let path = Fixtures.path(name)
      let stored = try DataFile.storedBytes(atPath: path)
      let expected = try whole(DataFile.contents(atPath: path), path: DataFile.displayPath(path))
      for (window, block) in [(7, 1), (64, 5), (4096, 4096)] {
        let (table, sha) = try streamed(path, window: window, block: block)
        expectSame(table, expected, "\(name), window \(window), block \(block)")
        #expect(sha == SHA256.hexDigest(stored), "\(name)")
      }
    }
  }

  /// An error early in a file several read-ahead chunks long: the reader stops while chunks it read are still
  /// waiting (it once crashed there, freeing a semaphore below its starting value), and the error is the whole
  /// file reader's.
  @Test func anEarlyErrorStopsTheReadAhead() throws {
    let text = "a,b\n1,2\n1,2,3\n" + (0..<600_000).map { "\($0),\($0 % 7)\n" }.joined()
    let path = files.write(text, name: "long.csv")
    let expected = dataError { () throws(DataError) in try whole(Array(text.utf8), path: path) }
    #expect(expected != nil)
    for (window, block) in [(4096, 4096), (4 << 20, 1 << 20)] {
      let error = dataError { () throws(DataError) in try streamed(path, window: window, block: block) }
      #expect(error?.description == expected?.description, "window \(window)")
    }
  }

  @Test func errorsAreTheWholeFileReadersWhereverChunksEnd() throws {
    let cases = [
      "a,b\n1,2\n1,2,3\n", "a,b\n1,\"open\n2,3\n", "a,b\n\"x\"y,2\n", "", "\n\na,b\n", "a,a\n1,2\n",
      "a,b\n1,2\n\n3,4\n", "a,,c\n1,2,3\n",
    ]
    for (index, text) in cases.enumerated() {
      let path = files.write(text, name: "case\(index).csv")
      let expected = dataError { () throws(DataError) in try whole(Array(text.utf8), path: path) }
      #expect(expected != nil, "case \(index) is an error")
      for window in 1...12 {
        let error = dataError { () throws(DataError) in try streamed(path, window: window, block: 2) }
        #expect(error?.description == expected?.description, "case \(index), window \(window)")
      }
    }
  }
}
