import BenchbookData
import Testing

/// Numbers written with a decimal comma (`3,14`), as European spreadsheets write them under `;` delimiters.
@Suite struct DecimalCommaTests {
  let files = TemporaryFiles()
  let comma = UInt8(ascii: ",")

  @Test(arguments: [
    ("3,14", "3.14"), ("-0,5", "-0.5"), ("+4", "+4"), (",5", ".5"), ("5,", "5."), ("1,5e3", "1.5e3"),
    ("2,5E-3", "2.5E-3"), (" 7,25 ", " 7.25 "),
    // Beyond the fast path: more digits than fit, and extreme exponents.
    ("12345678901234567890,123", "12345678901234567890.123"), ("1,7976931348623157e308", "1.7976931348623157e308"),
    ("4,9e-324", "4.9e-324"),
  ])
  func aCommaReadsAsAPointDoes(written: String, withPoint: String) {
    let expected = NumberParser.parse(withPoint)
    #expect(expected != nil)
    #expect(NumberParser.parse(written, decimal: comma)?.bitPattern == expected?.bitPattern, "\(written)")
  }

  @Test(arguments: ["3.14", "1.234,5", "3,1,4", ",", "1,5e", "1e3,5"])
  func pointsAndStrayCommasAreNotNumbersThen(text: String) {
    #expect(NumberParser.parse(text, decimal: comma) == nil, "\(text)")
  }

  @Test func theDefaultStaysThePoint() {
    #expect(NumberParser.parse("3,14") == nil)
    #expect(NumberParser.parse("3.14") == 3.14)
  }

  @Test func aEuropeanFileLoadsAsItsCommaTwin() throws {
    let european = files.write(
      "y;x;label\n1;3,25;a\n0;-1,5;b\n1;1,0e2;a\n0;\"0,125\";b\n", name: "eu.csv")
    let plain = files.write("y,x,label\n1,3.25,a\n0,-1.5,b\n1,1.0e2,a\n0,0.125,b\n", name: "plain.csv")
    var definitionEU = definition(european, target: "y", features: [column("x"), column("label")])
    definitionEU.dialect = CSVDialect(delimiter: UInt8(ascii: ";"), decimalSeparator: comma)
    let eu = try Dataset.load(definitionEU)
    let reference = try Dataset.load(definition(plain, target: "y", features: [column("x"), column("label")]))
    #expect(eu.x == reference.x)
    #expect(eu.features == reference.features)
    #expect(eu.x.column(0) == [3.25, -1.5, 100, 0.125])
  }

  @Test func aPointInADecimalCommaColumnIsAnError() throws {
    let path = files.write("y;x\n1;3,25\n0;2.5\n1;4,0\n", name: "eu.csv")
    var definition = BenchbookDataTests.definition(path, target: "y", features: [column("x", type: .numeric)])
    definition.dialect = CSVDialect(delimiter: UInt8(ascii: ";"), decimalSeparator: comma)
    let error = dataError { () throws(DataError) in try Dataset.load(definition) }
    #expect(
      error?.description == "\(path):3: column 'x': '2.5' is not a number, and the feature is declared `type: numeric`")
  }
}
