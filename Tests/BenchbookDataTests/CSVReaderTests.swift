import BenchbookData
import Testing

@Suite struct CSVReaderTests {
  let files = TemporaryFiles()

  private func table(_ text: String, columns: [String]? = nil) throws(DataError) -> CSVTable {
    let reader = try CSVReader(bytes: Array(text.utf8), path: "data.csv")
    return try reader.read(columns: columns ?? reader.header)
  }

  @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() throws {
    let text = "a,b,c\n1,\"x, y\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",\"\"\n3,plain,\"a\r\nb\"\n"
    let table = try table(text)
    #expect(table.header == ["a", "b", "c"])
    #expect(table.column(named: "b")?.values == ["x, y", "two\nlines", "plain"])
    #expect(table.column(named: "c")?.values == ["say \"hi\"", "", "a\r\nb"])
    // Physical lines: the record after a quoted line break starts one line later.
    #expect(table.lineNumbers == [2, 3, 5])
  }

  @Test func extractsOnlyRequestedColumnsInRequestedOrder() throws {
    let table = try table("a,b,c\n1,2,3\n4,5,6\n", columns: ["c", "a"])
    #expect(table.columns.map(\.name) == ["c", "a"])
    #expect(table.columns[0].values == ["3", "6"])
    #expect(table.columns[1].values == ["1", "4"])
    #expect(table.columns[1][1] == "4")
    #expect(table.rowCount == 2)
  }

  @Test(arguments: [
    "a,b\r\n1,2\r\n3,4\r\n", "a,b\n1,2\n3,4", "a,b\r\n1,2\r\n3,4", "a,b\n1,2\n3,4\n\n\n", "a,b\r\n1,2\r\n3,4\r\n\r\n",
    "\u{FEFF}a,b\n1,2\n3,4\n",
  ])
  func lineEndingsBOMAndTrailingBlankLines(text: String) throws {
    let table = try table(text)
    #expect(table.header == ["a", "b"])
    #expect(table.column(named: "b")?.values == ["2", "4"])
    #expect(table.lineNumbers == [2, 3])
  }

  @Test func emptyFieldsAndTrailingComma() throws {
    let table = try table("a,b,c\n,,\n1,,\n")
    #expect(table.column(named: "a")?.values == ["", "1"])
    #expect(table.column(named: "c")?.values == ["", ""])
  }

  @Test func headerOnlyFileHasNoRows() throws {
    #expect(try table("a,b\n").rowCount == 0)
    #expect(try table("a,b").rowCount == 0)
  }

  @Test func raggedRecordNamesFileLineAndCounts() {
    // Line 3 holds a quoted line break, so the short record is on physical line 5.
    let text = "a,b,c\n1,2,3\n4,\"x\ny\",6\n7,8\n"
    let error = dataError { () throws(DataError) in try table(text, columns: ["a"]) }
    #expect(error?.kind == .raggedRecord)
    #expect(error?.location == SourceLocation(file: "data.csv", line: 5))
    #expect(error?.description == "data.csv:5: expected 3 fields as in the header, found 2")
  }

  @Test func tooManyFieldsAndBlankLinesAreRagged() {
    let long = dataError { () throws(DataError) in try table("a,b\n1,2\n1,2,3\n") }
    #expect(long?.description == "data.csv:3: expected 2 fields as in the header, found 3")
    let blank = dataError { () throws(DataError) in try table("a,b\n1,2\n\n3,4\n") }
    #expect(blank?.kind == .raggedRecord)
    #expect(blank?.location.line == 3)
  }

  @Test func singleColumnBlankLineIsAnEmptyValue() throws {
    #expect(try table("a\n1\n\n2\n").column(named: "a")?.values == ["1", "", "2"])
  }

  @Test func headerProblems() {
    let duplicate = dataError { () throws(DataError) in
      try CSVReader(bytes: Array("a,b,a\n1,2,3\n".utf8), path: "d.csv")
    }
    #expect(duplicate?.kind == .malformedCSV)
    #expect(duplicate?.description == "d.csv:1: duplicate column name 'a' in the header (columns 1 and 3)")
    let unnamed = dataError { () throws(DataError) in try CSVReader(bytes: Array("a,,c\n".utf8), path: "d.csv") }
    #expect(unnamed?.message.contains("header column 2 has no name") == true)
    let empty = dataError { () throws(DataError) in try CSVReader(bytes: [], path: "d.csv") }
    #expect(empty?.message.contains("the file is empty") == true)
  }

  @Test func quotingErrors() {
    let open = dataError { () throws(DataError) in try table("a,b\n1,2\n3,\"never\nclosed\n") }
    #expect(open?.kind == .malformedCSV)
    #expect(open?.location.line == 3)
    #expect(open?.message.contains("never closed") == true)
    let after = dataError { () throws(DataError) in try table("a,b\n1,\"x\"y\n") }
    #expect(after?.message.contains("after a closing quote") == true)
  }

  @Test func quotedHeaderNamesAndQuotesInsideUnquotedFields() throws {
    let table = try table("\"first, name\",b\nsay 5\",x\n")
    #expect(table.header == ["first, name", "b"])
    #expect(table.columns[0].values == ["say 5\""])
  }

  @Test func unknownRequestedColumn() throws {
    let reader = try CSVReader(bytes: Array("a,b\n1,2\n".utf8), path: "d.csv")
    let error = dataError { () throws(DataError) in try reader.read(columns: ["c"]) }
    #expect(error?.kind == .unknownColumn)
    #expect(error?.column == "c")
  }

  @Test func readsFilesAndWideHeaders() throws {
    let names = (0..<100).map { "c\($0)" }
    let text = names.joined(separator: ",") + "\n" + (0..<100).map(String.init).joined(separator: ",") + "\n"
    let reader = try CSVReader(path: files.write(text))
    #expect(reader.header == names)
    #expect(try reader.read(columns: ["c99", "c64"]).columns.map { $0[0] } == ["99", "64"])
  }

  @Test func multiByteText() throws {
    let table = try table("名前,x\nÅsa,1\n\"日本, 東京\",2\n")
    #expect(table.header == ["名前", "x"])
    #expect(table.column(named: "名前")?.values == ["Åsa", "日本, 東京"])
  }
}
