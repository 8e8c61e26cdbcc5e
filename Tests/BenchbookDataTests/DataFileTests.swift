import BenchbookData
import Testing

@Suite struct DataFileTests {
  let files = TemporaryFiles()

  @Test func gunzipsSingleAndMultiMemberFiles() throws {
    let plain = try DataFile.storedBytes(atPath: Fixtures.path("small.csv"))
    let compressed = try DataFile.storedBytes(atPath: Fixtures.path("small.csv.gz"))
    #expect(Gzip.isCompressed(compressed))
    #expect(!Gzip.isCompressed(plain))
    #expect(try Gzip.decompress(compressed, path: "small.csv.gz") == plain)
    #expect(try DataFile.contents(atPath: Fixtures.path("small.csv.gz")) == plain)
    #expect(try DataFile.contents(atPath: Fixtures.path("multi-member.csv.gz")) == plain)
    #expect(try DataFile.contents(atPath: Fixtures.path("small.csv")) == plain)
  }

  @Test func ignoresZeroPaddingAfterTheLastMember() throws {
    let compressed = try DataFile.storedBytes(atPath: Fixtures.path("small.csv.gz"))
    let padded = files.write(compressed + [UInt8](repeating: 0, count: 512), name: "padded.csv.gz")
    #expect(try DataFile.contents(atPath: padded) == DataFile.storedBytes(atPath: Fixtures.path("small.csv")))
  }

  @Test func corruptAndTruncatedGzipAreErrors() throws {
    let compressed = try DataFile.storedBytes(atPath: Fixtures.path("small.csv.gz"))
    let truncated = dataError { () throws(DataError) in
      try Gzip.decompress(Array(compressed.prefix(compressed.count / 2)), path: "t.csv.gz")
    }
    #expect(truncated?.kind == .corruptGzip)
    #expect(truncated?.description.hasPrefix("t.csv.gz: cannot gunzip") == true)
    var damaged = compressed
    damaged[20] ^= 0xFF
    damaged[21] ^= 0xFF
    #expect(dataError { () throws(DataError) in try Gzip.decompress(damaged, path: "d.csv.gz") }?.kind == .corruptGzip)
    let trailing = compressed + Array("junk".utf8)
    let junk = dataError { () throws(DataError) in try Gzip.decompress(trailing, path: "j.csv.gz") }
    #expect(junk?.message.contains("unexpected bytes after the gzip data") == true)
  }

  /// The trailer's size hint covers only the tiny last member here, so the
  /// output must grow past the first buffer (see `Fixtures/make_fixtures.py`).
  @Test func outputGrowsBeyondTheSizeHint() throws {
    let contents = try DataFile.contents(atPath: Fixtures.path("multi-member-large.csv.gz"))
    #expect(contents.count == 146_908)
    let table = try CSVReader(bytes: contents, path: "large.csv").read(columns: ["x"])
    #expect(table.rowCount == 30_001)
    #expect(table.columns[0].values.compactMap(Double.init).reduce(0, +) == 1_439_060)
  }

  @Test func missingFileNamesThePath() {
    let path = files.directory + "/nope.csv"
    let error = dataError { () throws(DataError) in try DataFile.storedBytes(atPath: path) }
    #expect(error?.kind == .unreadableFile)
    #expect(error?.message.contains(path) == true)
    #expect(error?.message.contains("No such file") == true)
    let directory = dataError { () throws(DataError) in try DataFile.storedBytes(atPath: files.directory) }
    #expect(directory?.message.contains("not a regular file") == true)
  }
}

/// A name ending `.gz` promises gzip bytes; gzip bytes are read as gzip whatever the name.
@Suite struct GzipNameTests {
  let files = TemporaryFiles()

  @Test func aPlainFileNamedGzIsALocatedError() throws {
    let path = files.write("a,y\n1,x\n", name: "plain.csv.gz")
    var caught: DataError?
    do { _ = try DataFile.contents(atPath: path) } catch { caught = error }
    #expect(caught?.kind == .corruptGzip)
    #expect(caught?.location.line == 1 && caught?.location.column == 1)
    #expect(caught?.message.contains("is named .gz but is not gzip data: it starts with 61 2c") == true)
    let empty = files.write("", name: "empty.csv.gz")
    #expect(throws: DataError.self) { try DataFile.contents(atPath: empty) }
  }

  @Test func gzipBytesUnderAPlainNameAreGunzipped() throws {
    let compressed = try DataFile.storedBytes(atPath: Fixtures.path("small.csv.gz"))
    let path = files.write(compressed, name: "packed.csv")
    #expect(try DataFile.contents(atPath: path) == DataFile.storedBytes(atPath: Fixtures.path("small.csv")))
  }
}
