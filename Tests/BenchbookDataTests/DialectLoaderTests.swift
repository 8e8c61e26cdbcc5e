import BenchbookData
import Testing

/// The loader over dialects: TSV by name, row-name columns noted in provenance, files without a header,
/// and the advice when a file is read with the wrong delimiter.
@Suite struct DialectLoaderTests {
  let files = TemporaryFiles()

  @Test func tsvFilesLoadByName() throws {
    let path = files.write("y\tx\tnote\n1\t2.5\ta, b\n0\t3\tc\n", name: "data.tsv")
    let data = try Dataset.load(definition(path, target: "y", features: [column("x"), column("note")]))
    #expect(data.x.column(0) == [2.5, 3])
    #expect(data.features[1].categories == ["a, b", "c"])
  }

  @Test func rowNamesAreNotedInProvenance() throws {
    let path = files.write("\"\",\"y\",\"x\"\n\"Mazda RX4\",1,2\n\"Valiant\",0,3\n")
    let data = try Dataset.load(definition(path, target: "y", features: [column("x")]))
    #expect(data.provenance.rowNames == RowNamesColumn(header: "", writer: "R"))
    #expect(data.x.column(0) == [2, 3])
    let plain = try Dataset.load(
      definition(files.write("y,x\n1,2\n0,3\n", name: "p.csv"), target: "y", features: [column("x")]))
    #expect(plain.provenance.rowNames == nil)
    let named = dataError { () throws(DataError) in
      try Dataset.load(
        definition(
          files.write("Unnamed: 0,y,x\n0,1,2\n1,0,3\n", name: "u.csv"), target: "y", features: [column("Unnamed: 0")]))
    }
    #expect(
      named?.description
        == "spec.yaml:10: unknown column 'Unnamed: 0' in u.csv; 'Unnamed: 0' is the file's first column, pandas' "
        + "row index, which is skipped")
  }

  @Test func filesWithoutAHeaderLoadByGeneratedNames() throws {
    let path = files.write("1,2.5\n0,3\n")
    var definition = BenchbookDataTests.definition(path, target: "V1", features: [column("V2")])
    definition.dialect = CSVDialect(hasHeader: false)
    let data = try Dataset.load(definition)
    #expect(data.x.column(0) == [2.5, 3])
    #expect(data.lineNumbers == [1, 2])
    #expect(data.provenance.rowsRead == 2)
  }

  @Test func aHeaderOfOneColumnHoldingAnotherDelimiterIsExplained() throws {
    let path = files.write("y;x\n1;2\n0;3\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("x")]))
    }
    #expect(error?.kind == .unknownColumn)
    #expect(
      error?.description
        == "spec.yaml:5: unknown column 'y' in data.csv; the header reads as one column, 'y;x', which holds ';': "
        + "declare the file's delimiter with `data: {delimiter: \";\"}`")
  }
}
