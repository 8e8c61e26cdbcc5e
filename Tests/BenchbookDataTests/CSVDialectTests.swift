import BenchbookData
import Testing

/// Delimiters other than the comma, files without a header, R's and pandas' row-name columns, and the
/// advice for a file read with the wrong delimiter.
@Suite struct CSVDialectTests {
  let files = TemporaryFiles()

  /// A comma file and its twin in `delimiter`, both holding the delimiters of the other inside quotes.
  private func twins(_ delimiter: Character) -> (comma: String, other: String) {
    let rows = [
      ["id", "note", "x"], ["1", "\"a, b; c\"", "2.5"], ["2", "\"tab\there|pipe\"", ""],
      ["3", "\"say \"\"hi\"\"\"", "-1"],
      ["4", "\"two\nlines\"", "1e3"],
    ]
    func join(_ separator: Character) -> String {
      rows.map { $0.joined(separator: String(separator)) }.joined(separator: "\r\n") + "\r\n"
    }
    return (join(","), join(delimiter))
  }

  private func expectSame(_ a: CSVTable, _ b: CSVTable, _ comment: Comment) {
    #expect(a.header == b.header, comment)
    #expect(a.lineNumbers == b.lineNumbers, comment)
    #expect(a.columns.map(\.values) == b.columns.map(\.values), comment)
  }

  @Test(arguments: [";", "\t", "|", ":", " "] as [Character])
  func otherDelimitersReadAsCommasDo(delimiter: Character) throws {
    let (comma, other) = twins(delimiter)
    let dialect = CSVDialect(delimiter: UInt8(ascii: delimiter.unicodeScalars.first!))
    let expected = try CSVReader(bytes: Array(comma.utf8), path: "d.csv").read(columns: ["id", "note", "x"])
    let whole = try CSVReader(bytes: Array(other.utf8), path: "d.csv", dialect: dialect)
    expectSame(try whole.read(columns: ["id", "note", "x"]), expected, "whole file")
    let path = files.write(other, name: "other.txt")
    // Windows and blocks of a few bytes put a chunk boundary in every field, quote and line break.
    for (window, block) in [(1, 1), (5, 3), (64, 64)] {
      let stream = try CSVStream(path: path, windowBytes: window, blockBytes: block, dialect: dialect)
      expectSame(try stream.readText(columns: ["id", "note", "x"]), expected, "window \(window), block \(block)")
    }
  }

  /// Eight bytes at a time, the scanner looks for the delimiter by equality when it lies above ','.
  @Test func longFieldsAroundAHighDelimiter() throws {
    let long = String(repeating: "abcdefgh", count: 5)
    let text = "a;b;c\n\(long);x\(long);\(long)z\n;;\n"
    let table = try CSVReader(bytes: Array(text.utf8), path: "d.csv", dialect: CSVDialect(delimiter: UInt8(ascii: ";")))
      .read(columns: ["a", "b", "c"])
    #expect(table.columns.map(\.values) == [[long, ""], ["x" + long, ""], [long + "z", ""]])
  }

  @Test func tsvIsRecognisedByItsName() throws {
    let text = "a\tb\n1,5\tx\n"
    for name in ["data.tsv", "DATA.TSV"] {
      let reader = try CSVReader(path: files.write(text, name: name))
      #expect(reader.header == ["a", "b"])
      #expect(try reader.read(columns: ["a"]).columns[0].values == ["1,5"])
    }
    #expect(CSVDialect(path: "x/data.tsv.gz").delimiter == UInt8(ascii: "\t"))
    #expect(CSVDialect(path: "x/data.csv.gz").delimiter == UInt8(ascii: ","))
    #expect(try CSVReader(path: files.write(text, name: "data.csv")).header == ["a\tb"])
  }

  @Test func rowNameColumnsAreSkipped() throws {
    let r = try CSVReader(
      bytes: Array("\"\",\"Sepal.Length\",\"Species\"\n\"1\",5.1,\"setosa\"\n\"2\",4.9,\"setosa\"\n".utf8),
      path: "r.csv")
    #expect(r.header == ["Sepal.Length", "Species"])
    #expect(r.rowNames == RowNamesColumn(header: "", writer: "R"))
    #expect(try r.read(columns: ["Sepal.Length"]).columns[0].values == ["5.1", "4.9"])
    let pandas = try CSVReader(bytes: Array("Unnamed: 0,a\n0,x\n1,y\n".utf8), path: "p.csv")
    #expect(pandas.header == ["a"])
    #expect(pandas.rowNames == RowNamesColumn(header: "Unnamed: 0", writer: "pandas"))
    #expect(try pandas.read(columns: ["a"]).columns[0].values == ["x", "y"])
    // Only the first column, and only beside others.
    #expect(try CSVReader(bytes: Array("a,Unnamed: 0\n1,2\n".utf8), path: "d.csv").rowNames == nil)
    let alone = dataError { () throws(DataError) in try CSVReader(bytes: Array("\"\"\n1\n".utf8), path: "d.csv") }
    #expect(alone?.message.contains("header column 1 has no name") == true)
    let later = dataError { () throws(DataError) in try CSVReader(bytes: Array(",a,\n1,2,3\n".utf8), path: "d.csv") }
    #expect(later?.message.contains("header column 3 has no name") == true, "counted in the file's columns")
    // Records still need every field, the row names included.
    let ragged = dataError { () throws(DataError) in
      try CSVReader(bytes: Array(",a,b\n1,2,3\n2,3\n".utf8), path: "d.csv").read(columns: ["a"])
    }
    #expect(ragged?.description == "d.csv:3: expected 3 fields as in the header, found 2")
  }

  @Test func theStreamSkipsRowNamesToo() throws {
    let path = files.write("\"\",a,b\n\"x\",1,2\n\"y\",3,4\n")
    for window in [1, 4, 4096] {
      let stream = try CSVStream(path: path, windowBytes: window, blockBytes: 2)
      #expect(stream.header == ["a", "b"])
      #expect(stream.rowNames?.writer == "R")
      #expect(try stream.readText(columns: ["b", "a"]).columns.map(\.values) == [["2", "4"], ["1", "3"]])
    }
  }

  @Test func filesWithoutAHeader() throws {
    let text = "5.1,3.5,setosa\n4.9,3.0,setosa\n"
    let generated = try CSVReader(bytes: Array(text.utf8), path: "d.csv", dialect: CSVDialect(hasHeader: false))
    #expect(generated.header == ["V1", "V2", "V3"])
    let table = try generated.read(columns: ["V3", "V1"])
    #expect(table.columns.map(\.values) == [["setosa", "setosa"], ["5.1", "4.9"]])
    #expect(table.lineNumbers == [1, 2])
    let named = CSVDialect(hasHeader: false, columnNames: ["a", "b", "species"], columnNamesLocation: spec(4))
    let path = files.write("\u{FEFF}" + text)
    for window in [1, 7, 4096] {
      let stream = try CSVStream(path: path, windowBytes: window, blockBytes: 3, dialect: named)
      #expect(stream.header == ["a", "b", "species"])
      let read = try stream.readText(columns: ["species", "a"])
      #expect(read.columns.map(\.values) == [["setosa", "setosa"], ["5.1", "4.9"]], "window \(window)")
      #expect(read.lineNumbers == [1, 2])
    }
    let short = CSVDialect(hasHeader: false, columnNames: ["a", "b"], columnNamesLocation: spec(4))
    let error = dataError { () throws(DataError) in try CSVStream(path: path, dialect: short) }
    #expect(error?.description == "spec.yaml:4: 'columns' lists 2 names, but the first record of data.csv has 3 fields")
  }

  @Test func aFileMixingDelimitersIsALocatedError() throws {
    let mixed = dataError { () throws(DataError) in
      try CSVReader(bytes: Array("a,b,c\n1,2,3\n4;5;6\n".utf8), path: "d.csv").read(columns: ["a"])
    }
    #expect(mixed?.kind == .raggedRecord)
    #expect(
      mixed?.description
        == "d.csv:3: expected 3 fields as in the header, found 1; the line holds 2 ';' while fields are split at ',': "
        + "the file mixes delimiters, or its own is ';' (declare it with `data: {delimiter: \";\"}`)")
    let semicolons = CSVDialect(delimiter: UInt8(ascii: ";"))
    let tabbed = dataError { () throws(DataError) in
      try CSVReader(bytes: Array("a;b\n1;2\n3\t4\n".utf8), path: "d.csv", dialect: semicolons).read(columns: ["a"])
    }
    #expect(tabbed?.location.line == 3)
    #expect(tabbed?.message.contains("the line holds 1 '\\t' while fields are split at ';'") == true)
    // Too many fields, or too few with no other delimiter in sight, need no advice.
    let plain = dataError { () throws(DataError) in
      try CSVReader(bytes: Array("a,b,c\n1,2\n".utf8), path: "d.csv").read(columns: ["a"])
    }
    #expect(plain?.description == "d.csv:2: expected 3 fields as in the header, found 2")
  }
}
